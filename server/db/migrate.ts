import { Migrator, NO_MIGRATIONS } from 'kysely';
import type { Db } from './database.js';
import { migrationProvider } from './migrations/index.js';

function migrator(db: Db) {
  return new Migrator({ db, provider: migrationProvider });
}

function check(result: Awaited<ReturnType<Migrator['migrateToLatest']>>) {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${String((result.error as Error).message ?? result.error)}`);
  }
}

/** Brings the schema to the latest migration. */
export async function migrateToLatest(db: Db) { check(await migrator(db).migrateToLatest()); }

/** Undoes every migration (used to prove the downs run). */
export async function migrateDownAll(db: Db) { check(await migrator(db).migrateTo(NO_MIGRATIONS)); }
