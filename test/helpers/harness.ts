import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../../server/app/app.js';
import type { PaymentProvider } from '../../server/platform/payments/provider.js';
import type { Clock } from '../../server/platform/clock.js';
import { loadConfig, type Config } from '../../server/platform/config.js';
import { openDatabase, type ChangeFeed, type Db } from '../../server/platform/db/database.js';
import { migrateToLatest } from '../../server/platform/db/migrate.js';
import { ensureApiKey, ensureCompany, seedSandbox } from '../../server/platform/db/seed.js';
import { CREDENTIALS_CHANNEL } from '../../server/platform/auth/credential-cache.js';
import { examplesAnchorDate } from '../../server/platform/example-dates.js';
import { publishedDocument } from '../../server/platform/openapi.js';
import { conformanceProblems, operationFor, watchResponseDrift } from './contract.js';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now() { return new Date(Date.now() + this.offsetMs); }
  advance(ms: number) { this.offsetMs += ms; }
  /** Sets the time to `iso` (then it runs on from there). */
  set(iso: string) { this.offsetMs = Date.parse(iso) - Date.now(); }
}

/**
 * The day the contract's examples are written for (its `info.x-examples-anchor-date`), at 09:00
 * UTC: their policy dates start after it, their claims' losses are before it. Suites that send the
 * examples as the committed bundle has them (the fuzzer, the access matrix) set their clock to it;
 * examples as readers see them (moved to today, `withExampleDatesFor`) need no clock set.
 */
export const EXAMPLES_DAY = `${examplesAnchorDate(publishedDocument())}T09:00:00Z`;

export interface Harness {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: TestClock;
  driver: 'pg' | 'pglite';
  /** The database's change notices (the app's credential cache listens to them). */
  changes: ChangeFeed;
  /** The PostgreSQL schema this harness owns (pg only). */
  schema?: string;
  /** The seeded sandbox tenant. */
  tenantId: string;
  apiKey: string;
  /** A second tenant with its own key, for the forbidden paths. */
  otherTenantId: string;
  otherApiKey: string;
  /** `app.inject` with the sandbox Api-Key unless `apiKey` says otherwise (null sends none). */
  call(options: InjectOptions & { apiKey?: string | null; token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A fresh API over its own database: in-memory PGlite, or a new schema on the PostgreSQL server
 * when DATABASE_URL is set, so suites never see each other's rows.
 */
export async function createHarness(
  overrides: Partial<Config> = {},
  options: { beforeReady?: (app: FastifyInstance) => void; payments?: PaymentProvider } = {},
): Promise<Harness> {
  const url = process.env.DATABASE_URL;
  const schema = url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (url && schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', schema, poolSize: 20 });
  await migrateToLatest(handle.db);
  const apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const { tenantId } = await seedSandbox(handle.db, apiKey);
  const otherApiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const otherTenantId = await ensureCompany(handle.db, {
    name: 'Other Tenant Assurance', identifier: 'OTHER-TENANT', email: 'ops@other-tenant.example', type: 'INSURER',
    kind: 'NON_LIFE', shortName: 'Other', description: 'A second tenant for isolation tests', primaryColor: '#000000',
    smsSenderId: 'OTHER', subdomain: 'othertenant', address: 'Elsewhere', country: 'NG', firebaseProjectId: 'other-project',
  });
  await ensureApiKey(handle.db, otherTenantId, otherApiKey);

  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: '/tmp/coverline-test' }),
    // Suites sign up many clients from one address; the limit itself is tested with its own.
    signupsPerAddressPerHour: 1_000_000,
    operatorKeyFailuresPerAddress: 1_000_000,
    ...overrides,
  };
  const clock = new TestClock();
  const app = await buildApp({ config, db: handle.db, changes: handle.changes, clock, payments: options.payments });
  // Hooks a test plants run first, as if the handler itself had answered that.
  options.beforeReady?.(app);
  const drifts = watchResponseDrift(app);
  /**
   * On PostgreSQL a credential changed in the database (a test's direct write) reaches the app's
   * credential cache as a notice on another connection, a few milliseconds after the commit: each
   * call first waits for a notice of its own, sent now, to come back, so it sees every change
   * committed before it, as a request made through the API after the change does.
   */
  const credentialsSettled = async () => {
    if (handle.driver !== 'pg' || !app.services.credentials.active) return;
    const tag = `sync:${randomBytes(8).toString('hex')}`;
    const noticed = app.services.credentials.noticed(tag);
    await sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${tag})`.execute(handle.db);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([noticed, new Promise((resolve) => { timer = setTimeout(resolve, 5_000); })]);
    clearTimeout(timer);
  };
  await app.ready();
  const called = new Set<string>();

  return {
    app, db: handle.db, changes: handle.changes, config, clock, driver: handle.driver, schema, tenantId, apiKey, otherTenantId, otherApiKey,
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
    async close() {
      // Which operations hand-written tests called: CI checks every operation has one.
      const dir = process.env.OPERATION_COVERAGE_DIR;
      if (dir && called.size > 0) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`), JSON.stringify([...called]));
      }
      await app.close();
      await handle.close();
      if (url && schema) {
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  };
}
