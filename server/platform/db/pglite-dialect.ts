import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely dialect for embedded PGlite. PGlite is a single session, so connections are handed out one
 * at a time: two transactions interleaving on one session would share state (and double-spend
 * money). Waiting too long for the session means a query ran outside its transaction: fail loudly.
 */
export class PGliteDialect implements Dialect {
  private driver?: PGliteDriver;
  constructor(private readonly client: PGlite, private readonly acquireTimeoutMs = 15_000) {}
  createAdapter() { return new PostgresAdapter(); }
  createDriver(): Driver { return (this.driver = new PGliteDriver(this.client, this.acquireTimeoutMs)); }
  /** Whether the session is held (0 or 1) and how many wait for it, for metrics. */
  sessionStats(): { inUse: number; waiting: number } {
    return { inUse: this.driver?.held ? 1 : 0, waiting: this.driver?.waiting ?? 0 };
  }
  createIntrospector(db: Kysely<any>) { return new PostgresIntrospector(db); }
  createQueryCompiler() { return new PostgresQueryCompiler(); }
}

class PGliteDriver implements Driver {
  private tail: Promise<void> = Promise.resolve();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  /** Callers waiting for the session, and whether one holds it. */
  waiting = 0;
  held = false;

  constructor(private readonly client: PGlite, private readonly acquireTimeoutMs: number) {}

  async init() { await this.client.waitReady; }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    let timer: NodeJS.Timeout | undefined;
    this.waiting += 1;
    await Promise.race([
      previous,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('PGlite session busy too long: a query outside its transaction?')), this.acquireTimeoutMs);
      }),
    ]).finally(() => { clearTimeout(timer); this.waiting -= 1; });
    this.held = true;
    const connection = new PGliteConnection(this.client);
    this.releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection) { await connection.executeQuery(CompiledQuery.raw('commit')); }
  async rollbackTransaction(connection: DatabaseConnection) { await connection.executeQuery(CompiledQuery.raw('rollback')); }

  async releaseConnection(connection: DatabaseConnection) {
    this.held = false;
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy() { if (!this.client.closed) await this.client.close(); }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(query.sql, query.parameters as unknown[]);
    const isWrite = /^\s*(insert|update|delete|merge)\b/i.test(query.sql) || /^\s*with\b/i.test(query.sql);
    return {
      rows: result.rows,
      ...(isWrite && result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // PGlite has no cursors over its wire; the whole result is read, then handed out as one chunk.
    yield await this.executeQuery<R>(query);
  }
}
