import { Migrator, NO_MIGRATIONS, sql } from 'kysely';
import type { Db } from './database.js';
import { migrationProvider, migrations } from './migrations/index.js';

// Kysely looks for its bookkeeping tables in every schema; name ours, so schemas sharing a server
// (one per test suite) do not see each other's.
async function migrator(db: Db) {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider: migrationProvider, migrationTableSchema: rows[0].schema });
}

function check(result: Awaited<ReturnType<Migrator['migrateToLatest']>>) {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${String((result.error as Error).message ?? result.error)}`);
  }
}

/** Brings the schema to the latest migration. */
export async function migrateToLatest(db: Db) { check(await (await migrator(db)).migrateToLatest()); }

/** Undoes every migration (used to prove the downs run). */
export async function migrateDownAll(db: Db) { check(await (await migrator(db)).migrateTo(NO_MIGRATIONS)); }

/** The newest migration this code has (migrations are named in the order they run). */
export const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;

/**
 * The latest migration applied to the database (Kysely's migration table in the current schema),
 * or undefined when none is; rejects when the database does not answer.
 */
export async function latestAppliedMigration(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ exists: boolean }>`select to_regclass('kysely_migration') is not null as exists`.execute(db);
  if (!rows[0].exists) return undefined;
  const latest = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return latest.rows[0]?.name;
}
