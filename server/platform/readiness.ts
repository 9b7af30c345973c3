import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Services } from './context.js';
import { LATEST_MIGRATION, latestAppliedMigration } from './db/migrate.js';

/** One check's finding, as `GET /health/ready` lists it. */
export interface CheckResult { status: 'ok' | 'failing'; detail: string }
export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; notices: CheckResult; storage: CheckResult; shutdown: CheckResult };
}

/** The longest one check may take: a database or bucket that does not answer fails it rather than hold the probe. */
export const READINESS_CHECK_TIMEOUT_MS = 5_000;

const ok = (detail: string): CheckResult => ({ status: 'ok', detail });
const failing = (detail: string): CheckResult => ({ status: 'failing', detail: detail.slice(0, 500) });
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'no reason given';

async function bounded(what: string, check: () => Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(failing(`${what} did not answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch((error) => failing(`${what}: ${reason(error)}`)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The database answers, at the newest migration this code has (or a newer one, made by a newer instance). */
async function database(services: Pick<Services, 'db'>): Promise<CheckResult> {
  await sql`select 1`.execute(services.db);
  const applied = await latestAppliedMigration(services.db);
  if (applied === undefined) return failing(`the database has no migration applied; this code expects ${LATEST_MIGRATION}`);
  if (applied < LATEST_MIGRATION) return failing(`the database is at migration ${applied}; this code expects ${LATEST_MIGRATION}`);
  if (applied > LATEST_MIGRATION) return ok(`at migration ${applied}, newer than this code's ${LATEST_MIGRATION} (a newer instance migrated it)`);
  return ok(`at migration ${applied}`);
}

/** The credential cache hears the database's change notices, or keeps nothing (no change feed). */
function notices(services: Pick<Services, 'credentials'>): CheckResult {
  if (!services.credentials.enabled) return ok('the credential cache is off (no change feed): every request reads its credentials');
  return services.credentials.active
    ? ok('receiving credential notices')
    : failing('not receiving credential notices: the listening connection is lost (requests read their credentials until it is back)');
}

/** Storage takes a write: a small probe object written, then removed. */
async function storage(services: Pick<Services, 'storage' | 'config'>): Promise<CheckResult> {
  if (!services.storage) return ok('no document storage configured');
  const key = `readiness/${randomUUID()}`;
  await services.storage.put(key, Readable.from([Buffer.from('ready')]), 16, { contentType: 'text/plain' });
  await services.storage.delete(key);
  return ok(`${services.config.storageDriver} storage takes a write`);
}

/** Every check, run together. */
export async function checkReadiness(services: Pick<Services, 'db' | 'credentials' | 'storage' | 'config' | 'lifecycle'>): Promise<Readiness> {
  const signal = services.lifecycle.shuttingDown;
  const [databaseCheck, storageCheck] = await Promise.all([
    bounded('the database', () => database(services)),
    bounded('storage', () => storage(services)),
  ]);
  const checks = {
    database: databaseCheck,
    notices: notices(services),
    storage: storageCheck,
    shutdown: signal ? failing(`shutting down (${signal}): finishing in-flight requests`) : ok('not shutting down'),
  };
  return { ready: Object.values(checks).every((check) => check.status === 'ok'), checks };
}
