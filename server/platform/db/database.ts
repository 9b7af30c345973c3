import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Schema to work in (tests give each suite its own on a shared server). */
  schema?: string;
  poolSize?: number;
}

export interface DatabaseHandle {
  db: Db;
  driver: 'pg' | 'pglite';
  close(): Promise<void>;
}

// INT8, NUMERIC and DATE arrive as strings on both drivers: money stays decimal, dates stay plain.
const STRING_OIDS = new Set([20, 1700, 1082]);

/** Opens Kysely over PostgreSQL when a URL is given, over embedded PGlite otherwise. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: any) =>
          STRING_OIDS.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as any,
      },
    });
    // A client that loses its server must not crash the process: an idle one is dropped by the
    // pool; a checked-out one also fails its query, which the request answers (503).
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, driver: 'pg', close: () => db.destroy() };
  }

  const location = options.dataDir.startsWith('memory://') ? options.dataDir : path.join(options.dataDir, 'pglite');
  if (!location.startsWith('memory://')) mkdirSync(location, { recursive: true });
  const passThrough = (value: string) => value;
  const client = await PGlite.create(location, {
    parsers: { [pgliteTypes.INT8]: passThrough, [pgliteTypes.NUMERIC]: passThrough, [pgliteTypes.DATE]: passThrough },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return { db, driver: 'pglite', close: () => db.destroy() };
}
