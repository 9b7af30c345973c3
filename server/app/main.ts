import { buildApp } from './app.js';
import { configWarnings, loadConfig } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { seedSandbox } from '../platform/db/seed.js';
import { backgroundWorker } from './jobs.js';
import { boundHeapGrowth } from '../platform/memory.js';

/** Starts the API: migrate, seed the sandbox, listen; on SIGTERM/SIGINT finish requests and close. */
boundHeapGrowth();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
await seedSandbox(database.db, config.sandboxApiKey);

const app = await buildApp({ config, db: database.db, changes: database.changes, poolStats: database.poolStats, logger: { level: config.logLevel } });
app.addHook('onClose', async () => { await database.close(); });

// Background jobs (message delivery, due direct debits...) live in the database's job queue; this timer only polls it.
const worker = config.jobPollIntervalMs > 0 ? backgroundWorker(app.services, config.jobPollIntervalMs, app.log) : undefined;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: finishing in-flight requests, then closing`);
  const force = setTimeout(() => process.exit(1), 20_000);
  force.unref();
  await worker?.stop();
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
for (const warning of configWarnings(config)) app.log.warn(warning);
worker?.start();
const base = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/api/v1`;
const usingDefaultKey = !process.env.SANDBOX_API_KEY;
console.log(`
Coverline API listening on ${base}
Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}
Sandbox Api-Key: ${config.sandboxApiKey}${usingDefaultKey ? ' (the default; set SANDBOX_API_KEY to change it)' : ''}

Try it:
  curl ${base}/health
  curl -H 'Api-Key: ${config.sandboxApiKey}' '${base}/currencies'
  The contract: ${base}/openapi.json
`);
