/**
 * One API instance of the event delivery case (scripts/bench/events.ts), in a process of its own
 * as `npm start` runs one: the API listening, and its job worker woken by the database's notice
 * when jobs are committed and polling at least every `pollMs` (the webhook queue only: the other
 * queues' jobs, which the other cases leave, are not this case's). Two of them share the bench database. Spoken to over IPC: sends
 * { ready, api } once listening; on { stop } stops its worker (the poll in progress finishes),
 * closes, and answers { stopped, ran } (the webhook jobs it ran) before it exits.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../server/app/app.js';
import { jobHandlers } from '../../server/app/jobs.js';
import { loadConfig } from '../../server/platform/config.js';
import { BENCH_TOKEN_TTL_SECONDS } from './dataset.js';
import { openDatabase } from '../../server/platform/db/database.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { boundHeapGrowth } from '../../server/platform/memory.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';

export interface InstanceOptions {
  databaseUrl: string;
  dataDir: string;
  /** The same in both instances: a token signed by one is taken by the other. */
  jwtSecret: string;
  pollMs: number;
  poolSize: number;
}

export type InstanceMessage =
  | { kind: 'ready'; api: string }
  | { kind: 'stopped'; ran: number; errors: string[] }
  | { kind: 'failed'; error: string };

const options = JSON.parse(process.argv[2]) as InstanceOptions;
const send = (message: InstanceMessage, then: () => void = () => {}) => process.send!(message, then);

boundHeapGrowth(); // as server/app/main.ts does
const config = {
  ...loadConfig({ ...process.env, DATABASE_URL: options.databaseUrl, DATA_DIR: options.dataDir, JWT_SECRET: options.jwtSecret,
    JWT_TTL_SECONDS: BENCH_TOKEN_TTL_SECONDS, LOG_LEVEL: 'silent', JOB_POLL_INTERVAL_MS: String(options.pollMs) }),
  port: 0,
  host: '127.0.0.1',
};
const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, poolSize: options.poolSize });
try {
  const app = await buildApp({ config, db: database.db, changes: database.changes, poolStats: database.poolStats, logger: false });
  await app.listen({ port: config.port, host: config.host });
  let ran = 0;
  const errors: string[] = [];
  const deliver = jobHandlers(app.services)[DELIVER_WEBHOOK_QUEUE];
  const worker = createWorker({
    db: database.db, clock: app.services.clock, intervalMs: config.jobPollIntervalMs, leaseMs: config.jobLeaseMs, changes: database.changes,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: async (job, now) => { ran += 1; await deliver(job, now); } },
    log: { error: (obj, msg) => { if (errors.length < 20) errors.push(`${msg}: ${String((obj as { err?: unknown }).err ?? JSON.stringify(obj))}`); } },
  });
  worker.start();
  process.on('message', async (message: { kind: string }) => {
    if (message.kind !== 'stop') return;
    await worker.stop();
    await app.close();
    await database.close();
    send({ kind: 'stopped', ran, errors }, () => process.exit(0));
  });
  send({ kind: 'ready', api: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1` });
} catch (error) {
  await database.close().catch(() => {});
  send({ kind: 'failed', error: (error as Error).stack ?? String(error) }, () => process.exit(1));
}
