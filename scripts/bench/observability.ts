/**
 * What observing the API costs (issue 31): `get product` driven against three API processes on the
 * same database, alternated in rounds (off, metrics on, tracing on), each a `servers.ts serve`
 * process as `npm start` builds the API. Metrics on: METRICS_TOKEN set, and the endpoint scraped
 * once a run as Prometheus would. Tracing on: OTEL_EXPORTER_OTLP_ENDPOINT set to a receiver in this
 * process that takes OTLP/HTTP posts (and counts them: a run that exported nothing measured
 * nothing). Processes of their own, because tracing installs process-wide hooks (its context
 * manager) that would reach an "off" API in the same process. PostgreSQL only: the embedded
 * database is one process's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriveCase, DriveResult } from './drive.js';
import type { ServerMessage, ServerOptions } from './servers.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A token Prometheus would be given: long enough for the server's check. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

export interface ObservedVariant { name: 'metrics' | 'tracing'; api: string; process: ChildProcess }

/** An OTLP/HTTP receiver: answers every POST 200 with an empty ExportTraceServiceResponse, counts the posts. */
export async function otlpReceiver() {
  let posts = 0;
  let bytes = 0;
  const server = http.createServer((request, response) => {
    request.on('data', (chunk: Buffer) => { bytes += chunk.length; });
    request.on('end', () => {
      if (request.method === 'POST') posts += 1;
      response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' }).end(request.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ posts, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts a `serve` process with the environment that turns one kind of observing on; resolves with its API's base URL. */
export function startVariant(name: ObservedVariant['name'], options: ServerOptions, env: Record<string, string>): Promise<ObservedVariant> {
  const child = fork(path.join(here, 'servers.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'], stdio: 'inherit', env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message: ServerMessage) => {
      if (message.kind === 'ready') resolve({ name, api: message.api, process: child });
      else if (message.kind === 'failed') reject(new Error(`${name} server: ${message.error}`));
    });
    child.on('exit', (code) => reject(new Error(`the ${name} server process ended (${code})`)));
  });
}

export async function stopVariant(variant: ObservedVariant) {
  if (!variant.process.connected) return;
  variant.process.send({ kind: 'stop' });
  await new Promise((resolve) => { variant.process.once('exit', resolve); setTimeout(resolve, 10_000); });
}

/** Scrapes the metrics endpoint mid-run as Prometheus would; answers whether it named the operation driven. */
export async function scrapeNames(api: string, operationId: string): Promise<string | null> {
  const answer = await fetch(`${api}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  const text = await answer.text();
  if (answer.status !== 200) return `the metrics endpoint answered ${answer.status}`;
  return text.includes(`operation="${operationId}"`) ? null : `the metrics do not name ${operationId}`;
}

export type Drive = (driveCase: DriveCase) => Promise<DriveResult>;
