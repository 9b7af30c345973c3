import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';
import { observeStatements, withTransactionSettings } from '../../server/platform/db/transaction-settings.js';
import type { ObservedStatement } from '../../server/platform/db/statement-observers.js';

/**
 * Metrics count and traces time every statement a database handle sends, through its views too
 * (the audited view of a write wraps it in BEGIN ... COMMIT): one observer list per opened database.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://', poolSize: 2 });
});
afterAll(async () => { await handle.close(); });

it('tells each observer every statement, its text without values, its timing and its failure; not after it stops', async () => {
  const seen: ObservedStatement[] = [];
  const stop = observeStatements(handle.db, (statement) => seen.push(statement));
  const before = Date.now();
  await sql`select ${'a secret value'}::text as v`.execute(handle.db);
  await expect(sql`select * from no_such_table_here`.execute(handle.db)).rejects.toThrow();
  expect(seen.map((s) => s.sql)).toEqual(['select $1::text as v', 'select * from no_such_table_here']);
  expect(JSON.stringify(seen)).not.toContain('a secret value');
  expect(seen[0].startTime).toBeGreaterThanOrEqual(before - 1);
  expect(seen[0].durationMs).toBeGreaterThanOrEqual(0);
  expect(seen[0].error).toBeUndefined();
  expect(seen[1].error).toBeInstanceOf(Error);
  stop();
  await sql`select 1`.execute(handle.db);
  expect(seen).toHaveLength(2);
});

it('sees the statements of a transaction and of a view with transaction settings, BEGIN and COMMIT included', async () => {
  const seen: string[] = [];
  const stop = observeStatements(handle.db, (statement) => seen.push(statement.sql));
  await handle.db.transaction().execute(async (trx) => { await sql`select 2`.execute(trx); });
  const view = withTransactionSettings(handle.db, { 'coverline.test': 'x' });
  await sql`create temporary table if not exists observed_t (v int)`.execute(view);
  stop();
  expect(seen.slice(0, 3)).toEqual(['begin', 'select 2', 'commit']);
  expect(seen).toContain('create temporary table if not exists observed_t (v int)');
});

it('a throwing observer does not fail the statement', async () => {
  const stop = observeStatements(handle.db, () => { throw new Error('observer bug'); });
  await expect(sql`select 3 as n`.execute(handle.db)).resolves.toMatchObject({ rows: [{ n: 3 }] });
  stop();
});
