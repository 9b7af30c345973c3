import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp, type AppOptions } from '../../server/app/app.js';
import type { MessageTransports } from '../../server/platform/messages/transport.js';
import type { PaymentProvider } from '../../server/platform/payments/provider.js';
import type { Clock } from '../../server/platform/clock.js';
import { loadConfig, type Config } from '../../server/platform/config.js';
import { openDatabase, type ChangeFeed, type Db } from '../../server/platform/db/database.js';
import { ensureApiKey } from '../../server/platform/db/seed.js';
import { CREDENTIALS_CHANNEL } from '../../server/platform/auth/credential-cache.js';
import { examplesAnchorDate } from '../../server/platform/example-dates.js';
import { publishedDocument } from '../../server/platform/openapi.js';
import { createDatabaseCopy, dropDatabaseCopy, snapshotBlob, tenantsOf } from './database-template.js';
import { conformanceProblems, operationFor, watchResponseDrift } from './contract.js';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenMs: number | undefined;
  now() { return new Date(this.frozenMs ?? Date.now() + this.offsetMs); }
  advance(ms: number) {
    if (this.frozenMs === undefined) this.offsetMs += ms; else this.frozenMs += ms;
  }
  /** Sets the time to `iso` (then it runs on from there, frozen or not). */
  set(iso: string) { this.frozenMs = undefined; this.offsetMs = Date.parse(iso) - Date.now(); }
  /**
   * Stops the time where it is (or at `iso`) until `set` is called: for a test whose figures depend
   * on the seconds between two readings (the server's and the test's), which a busy machine stretches.
   */
  freeze(iso?: string) { this.frozenMs = iso === undefined ? this.now().getTime() : Date.parse(iso); }
}

/**
 * The day the contract's examples are written for (its `info.x-examples-anchor-date`), at 09:00
 * UTC: their policy dates start after it, their claims' losses are before it. Suites that send the
 * examples as the committed bundle has them (the fuzzer, the access matrix) set their clock to it;
 * examples as readers see them (moved to today, `withExampleDatesFor`) need no clock set.
 */
export const EXAMPLES_DAY = `${examplesAnchorDate(publishedDocument())}T09:00:00Z`;

/**
 * Answers once `app` has received every credential notice committed so far: a notice of its own,
 * sent now, has come back, and notices arrive in commit order. A signal to wait for rather than a
 * time to sleep. Nothing to wait for while the app keeps no credentials (no notices received).
 */
export async function credentialNoticesArrived(app: FastifyInstance, db: Db): Promise<void> {
  if (!app.services.credentials.active) return;
  const tag = `sync:${randomBytes(8).toString('hex')}`;
  const noticed = app.services.credentials.noticed(tag);
  await sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${tag})`.execute(db);
  await noticed;
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: TestClock;
  driver: 'pg' | 'pglite';
  /** The database's change notices (the app's credential cache listens to them). */
  changes: ChangeFeed;
  /** The PostgreSQL database this harness owns, a copy of the template (pg only): for a second connection to it. */
  databaseUrl?: string;
  /** The seeded sandbox tenant. */
  tenantId: string;
  apiKey: string;
  /** A second tenant with its own key, for the forbidden paths. */
  otherTenantId: string;
  otherApiKey: string;
  /** `app.inject` with the sandbox Api-Key unless `apiKey` says otherwise (null sends none). */
  call(options: InjectOptions & { apiKey?: string | null; token?: string }): Promise<LightMyRequestResponse>;
  /**
   * Takes the database away from the app: on PostgreSQL its database is dropped (its connections
   * ended), the embedded one is closed. For the checks that must see a database that does not answer.
   */
  loseDatabase(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh API over its own database, a copy of the migrated and seeded template: in-memory PGlite,
 * or a new database on the PostgreSQL server when DATABASE_URL is set, so suites never see each
 * other's rows.
 */
export async function createHarness(
  overrides: Partial<Config> = {},
  options: {
    beforeReady?: (app: FastifyInstance) => void; payments?: PaymentProvider; messages?: MessageTransports;
    /** Traces to this provider (an in-memory exporter's), as `buildApp` takes it. */
    tracerProvider?: AppOptions['tracerProvider'];
    /** Fastify's logger setting (a pino `stream` to read the lines), off unless given. */
    logger?: AppOptions['logger'];
  } = {},
): Promise<Harness> {
  const url = process.env.DATABASE_URL;
  // A copy of the migrated, seeded template (test/helpers/database-template.ts), not a migration per harness.
  const copy = url ? await createDatabaseCopy(url) : undefined;
  const handle = copy
    ? await openDatabase({ databaseUrl: copy.url, dataDir: 'memory://', poolSize: 20 })
    : await openDatabase({ dataDir: 'memory://', loadDataDir: await snapshotBlob() });
  const { tenantId, otherTenantId } = await tenantsOf(handle.db);
  const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const otherApiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  await ensureApiKey(handle.db, tenantId, apiKey);
  await ensureApiKey(handle.db, otherTenantId, otherApiKey);

  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: '/tmp/coverline-test' }),
    // Suites sign up many clients from one address; the limit itself is tested with its own.
    signupsPerAddressPerHour: 1_000_000,
    operatorKeyFailuresPerAddress: 1_000_000,
    ...overrides,
  };
  const clock = new TestClock();
  const app = await buildApp({ config, db: handle.db, changes: handle.changes, poolStats: handle.poolStats, clock, payments: options.payments, messages: options.messages,
    tracerProvider: options.tracerProvider, logger: options.logger });
  // Hooks a test plants run first, as if the handler itself had answered that.
  options.beforeReady?.(app);
  const drifts = watchResponseDrift(app);
  /**
   * On PostgreSQL a credential changed in the database (a test's direct write) reaches the app's
   * credential cache as a notice on another connection, a few milliseconds after the commit: each
   * call first waits for the notices committed before it (bounded, so a lost notice fails the
   * check after it rather than hanging), as a request made through the API after the change does.
   */
  const credentialsSettled = async () => {
    if (handle.driver !== 'pg') return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([credentialNoticesArrived(app, handle.db), new Promise((resolve) => { timer = setTimeout(resolve, 5_000); })]);
    clearTimeout(timer);
  };
  await app.ready();
  const called = new Set<string>();
  let databaseLost = false;

  return {
    app, db: handle.db, changes: handle.changes, config, clock, driver: handle.driver, databaseUrl: copy?.url, tenantId, apiKey, otherTenantId, otherApiKey,
    async call({ apiKey: key, token, headers, ...options }) {
      const sent: Record<string, string> = { ...(headers as Record<string, string>) };
      const chosen = key === undefined ? apiKey : key;
      if (chosen !== null) sent['api-key'] = chosen;
      if (token) sent.authorization = `Bearer ${token}`;
      const before = drifts.length;
      await credentialsSettled();
      const response = await app.inject({ ...options, headers: sent });
      if (drifts.length > before) {
        const drift = drifts[drifts.length - 1];
        throw new Error(`${drift.operationId} answered something its contract does not say:\n${drift.detail}`);
      }
      const operation = operationFor(String(options.method ?? 'GET'), String(options.url ?? ''));
      if (operation) {
        called.add(operation.operationId);
        const problems = conformanceProblems(operation.operationId, { statusCode: response.statusCode, headers: response.headers, body: response.body });
        if (problems.length) throw new Error(`${operation.operationId} answered ${response.statusCode} against its contract:\n- ${problems.join('\n- ')}`);
      }
      return response;
    },
    async loseDatabase() {
      databaseLost = true;
      if (url && copy) await dropDatabaseCopy(url, copy.name);
      else await handle.db.destroy();
    },
    async close() {
      // Which operations hand-written tests called: CI checks every operation has one.
      const dir = process.env.OPERATION_COVERAGE_DIR;
      if (dir && called.size > 0) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`), JSON.stringify([...called]));
      }
      await app.close();
      // A lost embedded database is closed already; a lost PostgreSQL one has only its pool left to end.
      if (!databaseLost || handle.driver === 'pg') await handle.close();
      if (url && copy) await dropDatabaseCopy(url, copy.name);
    },
  };
}

/** A port free right now, so a server's address is known before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A harness listening on a real port whose public URL is its own address (the sandbox checkout's
 * links point at it), for callers outside the process: a browser, a shell script. Answers the
 * harness and its API base URL.
 */
export async function listeningHarness(overrides: Partial<Config> = {}): Promise<{ h: Harness; base: string }> {
  const port = await freePort();
  const h = await createHarness({ publicBaseUrl: `http://127.0.0.1:${port}`, ...overrides });
  await h.app.listen({ port, host: '127.0.0.1' });
  return { h, base: `http://127.0.0.1:${port}/api/v1` };
}
