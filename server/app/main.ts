import { buildApp } from './app.js';
import { configWarnings, DEFAULT_SANDBOX_API_KEY, loadConfig } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { seedSandbox } from '../platform/db/seed.js';
import { backgroundWorker } from './jobs.js';
import { logDestination } from './request-log.js';
import { boundHeapGrowth } from '../platform/memory.js';

/** Starts the API: migrate, seed the sandbox, listen; on SIGTERM/SIGINT finish requests and the running jobs, then close. */
boundHeapGrowth();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
await seedSandbox(database.db, config.sandboxApiKey);

const app = await buildApp({ config, db: database.db, changes: database.changes, poolStats: database.poolStats, logger: { level: config.logLevel, stream: logDestination() } });
app.addHook('onClose', async () => { await database.close(); });

// Background jobs (webhook and message delivery, due direct debits...) live in the database's job
// queue: the worker runs a job as soon as the transaction that enqueued it commits (the database's
// notice), and polls every JOB_POLL_INTERVAL_MS besides.
const worker = config.jobPollIntervalMs > 0
  ? backgroundWorker(app.services, { intervalMs: config.jobPollIntervalMs, leaseMs: config.jobLeaseMs, changes: database.changes, log: app.log })
  : undefined;

/**
 * SIGTERM/SIGINT: readiness answers 503 at once and new requests 503 SHUTTING_DOWN with
 * Retry-After (server/app/shutdown.ts) while the server keeps listening; the requests in flight
 * and the jobs being run finish; then the server closes (idle keep-alive connections at once) and
 * the process exits 0. Past SHUTDOWN_TIMEOUT_MS it exits 1, logging what was still running.
 */
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.beginShutdown(signal);
  app.log.info(`${signal}: finishing in-flight requests, then closing`);
  const force = setTimeout(() => {
    const requests = app.requestsInFlight();
    const jobs = worker?.running() ?? [];
    const running = [...requests.map((request) => `request ${request}`), ...jobs.map((job) => `job ${job.queue} ${job.id}`)];
    app.log.error({ requests, jobs }, `${signal}: not finished within SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms), exiting 1; still running: ${running.join(', ') || 'closing the server and the database'}`);
    process.exit(1);
  }, config.shutdownTimeoutMs);
  force.unref();
  await Promise.all([worker?.stop(), app.requestsFinished()]);
  await app.close();
  app.log.info(`${signal}: closed`);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
for (const warning of configWarnings(config)) app.log.warn(warning);
worker?.start();
const base = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/api/v1`;
const usingDefaultKey = config.sandboxApiKey === DEFAULT_SANDBOX_API_KEY;
console.log(`
Coverline API listening on ${base}
Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}
Sandbox Api-Key: ${config.sandboxApiKey}${usingDefaultKey ? ' (the default; set SANDBOX_API_KEY to change it)' : ''}

Try it:
  curl ${base}/health
  curl -H 'Api-Key: ${config.sandboxApiKey}' '${base}/currencies'
  The contract: ${base}/openapi.json
`);
