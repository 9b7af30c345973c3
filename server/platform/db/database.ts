import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { openShared } from './transaction-settings.js';
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
  /** PostgreSQL: keep each connection's statements parsed and planned (named statements); on unless false. */
  preparedStatements?: boolean;
  /** PGlite: start from this data directory (a `dumpDataDir()` tarball) rather than an empty one (tests clone a migrated database). */
  loadDataDir?: Blob;
}

/** The connections behind `db` right now: PostgreSQL's pool, or PGlite's one session (max 1). */
export interface PoolStats {
  /** Most connections the pool opens. */
  max: number;
  /** Checked out by a query or transaction. */
  inUse: number;
  /** Open and free. */
  idle: number;
  /** Queries or transactions waiting for a connection. */
  waiting: number;
}

export interface DatabaseHandle {
  db: Db;
  driver: 'pg' | 'pglite';
  /** The pool's connections now (for metrics). */
  poolStats(): PoolStats;
  /** NOTIFY messages of the database, for caches that must drop what another writer changed. */
  changes: ChangeFeed;
  close(): Promise<void>;
}

export interface ChangeListener {
  /** A NOTIFY payload sent on the channel, after the transaction that sent it committed. */
  notice(payload: string): void;
  /** true once listening; false whenever notices may have been missed (the connection was lost), until listening again. */
  listening(on: boolean): void;
}

export interface ChangeFeed {
  /** Listens on a channel until the returned stop is called (or the database is closed). */
  listen(channel: string, listener: ChangeListener): Promise<() => Promise<void>>;
}

const RECONNECT_MS = { first: 500, max: 30_000 };

/** At most this many statements are kept prepared per connection; past it, statements are sent unnamed. */
const PREPARED_PER_CONNECTION = 500;
const DML = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Every statement the API sends through this connection (the query builder's: the same text for
 * the same call, its values apart) is sent as a named statement, so PostgreSQL parses and plans it
 * once per connection rather than once per request: for the policy list, planning took five times
 * its execution. Statements are named by a digest of their text. A statement whose tables changed
 * shape under it (a migration adding a column to a `select *`: PostgreSQL refuses with 0A000) fails
 * once and is prepared afresh under another name by the next request.
 */
function prepareStatements(client: pg.PoolClient) {
  const names = new Map<string, string>();
  let renamed = 0;
  const send = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !Array.isArray(values) || rest.length > 0 || !DML.test(text)) return send(text, values, ...rest);
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= PREPARED_PER_CONNECTION) return send(text, values);
      name = `cl_${createHash('sha256').update(text).digest('base64url').slice(0, 40)}`;
      names.set(text, name);
    }
    return send({ name, text, values }).catch((error: { code?: string }) => {
      if (error.code === '0A000') names.set(text, `${name}_${(renamed += 1)}`);
      throw error;
    });
  }) as typeof client.query;
}

/**
 * PostgreSQL: one connection of its own per channel (a pooled one would be handed to queries),
 * reconnected with backoff when lost; while it is down the listener is told notices may be missed.
 */
function pgChangeFeed(config: pg.ClientConfig, closing: Set<() => Promise<void>>): ChangeFeed {
  return {
    async listen(channel, listener) {
      let stopped = false;
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      let delay = RECONNECT_MS.first;
      const connect = async (): Promise<void> => {
        const next = new pg.Client(config);
        next.on('notification', (message) => { if (message.channel === channel) listener.notice(message.payload ?? ''); });
        const lost = () => {
          if (client !== next) return;
          client = undefined;
          listener.listening(false);
          if (!stopped) retry = setTimeout(() => { connect().catch(() => {}); }, delay);
          delay = Math.min(delay * 2, RECONNECT_MS.max);
        };
        next.on('error', lost);
        next.on('end', lost);
        client = next;
        try {
          await next.connect();
          await next.query(`listen ${pg.escapeIdentifier(channel)}`);
        } catch (error) {
          lost();
          throw error;
        }
        if (stopped) { await next.end(); return; }
        delay = RECONNECT_MS.first;
        listener.listening(true);
      };
      const stop = async () => {
        stopped = true;
        clearTimeout(retry);
        closing.delete(stop);
        const last = client;
        client = undefined;
        listener.listening(false);
        await last?.end().catch(() => {});
      };
      closing.add(stop);
      // The first connection may fail (the server restarting): the listener stays off and retries.
      await connect().catch(() => {});
      return stop;
    },
  };
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
    pool.on('connect', (client) => {
      client.on('error', () => {});
      if (options.preparedStatements !== false) prepareStatements(client);
    });
    const db = openShared(new PostgresDialect({ pool }));
    const listeners = new Set<() => Promise<void>>();
    const changes = pgChangeFeed({ connectionString: options.databaseUrl }, listeners);
    const close = async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    };
    const max = options.poolSize ?? 10;
    const poolStats = () => ({ max, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, driver: 'pg', changes, close, poolStats };
  }

  const location = options.dataDir.startsWith('memory://') ? options.dataDir : path.join(options.dataDir, 'pglite');
  if (!location.startsWith('memory://')) mkdirSync(location, { recursive: true });
  const passThrough = (value: string) => value;
  // Loaded here, not at the top: a server on PostgreSQL never holds the embedded database's module.
  const [{ PGlite, types: pgliteTypes }, { PGliteDialect }] = await Promise.all([import('@electric-sql/pglite'), import('./pglite-dialect.js')]);
  const client = await PGlite.create(location, {
    loadDataDir: options.loadDataDir,
    parsers: { [pgliteTypes.INT8]: passThrough, [pgliteTypes.NUMERIC]: passThrough, [pgliteTypes.DATE]: passThrough },
  });
  const dialect = new PGliteDialect(client);
  const db = openShared(dialect);
  // One process, one session: a notice reaches the listener as the COMMIT that sent it returns.
  const changes: ChangeFeed = {
    async listen(channel, listener) {
      const unlisten = await client.listen(channel, (payload) => listener.notice(payload));
      listener.listening(true);
      return async () => { listener.listening(false); if (!client.closed) await unlisten(); };
    },
  };
  const poolStats = () => {
    const { inUse, waiting } = dialect.sessionStats();
    return { max: 1, inUse, idle: 1 - inUse, waiting };
  };
  return { db, driver: 'pglite', changes, close: () => db.destroy(), poolStats };
}
