/**
 * One bench case driven by autocannon, in a process of its own (started by scripts/bench/index.ts),
 * so the load generator does not share an event loop with the server it measures. Its one argument
 * names a JSON file holding a DriveCase; it prints one JSON DriveResult line on stdout.
 *
 * A case names requests to take in turn (paths, bodies, headers), so a read walks over many rows
 * and a create never repeats itself; `forwardedFor` gives every request its own X-Forwarded-For
 * (callers behind a load balancer: per-address rate limits see many addresses, as in production).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface DriveRequest { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string> }

export interface DriveCase {
  /** The server's base URL (the API's /api/v1 or the baseline's root). */
  base: string;
  headers: Record<string, string>;
  requests: DriveRequest[];
  connections: number;
  durationSeconds: number;
  forwardedFor?: boolean;
  /** Each request gets a fresh Idempotency-Key. */
  idempotencyKey?: boolean;
}

export interface DriveResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as DriveCase;
const base = new URL(spec.base);
const prefix = base.pathname.replace(/\/$/, '');
let next = 0;

const result = await autocannon({
  url: base.origin,
  connections: spec.connections,
  duration: spec.durationSeconds,
  requests: [{
    setupRequest: (request: any) => {
      const n = next++;
      const pick = spec.requests[n % spec.requests.length];
      request.method = pick.method;
      request.path = `${prefix}${pick.path}`;
      request.headers = {
        ...spec.headers,
        ...pick.headers,
        ...(pick.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(spec.forwardedFor ? { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } : {}),
        ...(spec.idempotencyKey ? { 'idempotency-key': `bench-${process.pid}-${n}` } : {}),
      };
      request.body = pick.body !== undefined ? JSON.stringify(pick.body) : undefined;
      return request;
    },
  }],
});

const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
const out: DriveResult = {
  requestsPerSecond: result.requests.average,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes,
};
process.stdout.write(`${JSON.stringify(out)}\n`);
