import { Migrator, NO_MIGRATIONS, sql } from 'kysely';
import type { Db } from './database.js';
import { migrationProvider } from './migrations/index.js';

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
