import {
  CompiledQuery, Kysely, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings,
} from 'kysely';
import type { Database } from './schema.js';
import { observedDriver, type StatementObserver } from './statement-observers.js';

type Db = Kysely<Database>;

/** How a database was opened: its dialect, the one driver (pool or PGlite session) every view of it shares, who watches its statements. */
interface Opened { dialect: Dialect; driver: Driver; observers: Set<StatementObserver> }
const opened = new WeakMap<Db, Opened>();

/**
 * Opens Kysely over `dialect` with one driver that views made by `withTransactionSettings` share
 * (the same pool, the same PGlite session), rather than each opening its own.
 */
export function openShared(dialect: Dialect): Db {
  const observers = new Set<StatementObserver>();
  const driver = observedDriver(dialect.createDriver(), observers);
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => dialect.createIntrospector(kysely),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    },
  });
  opened.set(db, { dialect, driver, observers });
  return db;
}

/**
 * Tells `observer` every statement sent through `db` or any view of it (metrics count them, traces
 * make spans of them) until the returned function is called.
 */
export function observeStatements(db: Db, observer: StatementObserver): () => void {
  const base = opened.get(db);
  if (!base) throw new Error('observeStatements needs a database opened by openShared');
  base.observers.add(observer);
  return () => { base.observers.delete(observer); };
}

const WRITE = /^\s*(insert|update|delete|merge|with)\b/i;

/** What a view of the database adds to the statements sent through it. */
export interface ViewOptions {
  /**
   * Every write runs in a transaction that has these set (PostgreSQL's `set_config(name, value,
   * true)`, gone when the transaction ends): a transaction gets them as it begins, a write sent on
   * its own is wrapped in a transaction of its own. What triggers read (the audit trail's
   * `coverline.audit`) thus reaches every row a call writes, whichever code path wrote it, and
   * never outlives the call on a pooled connection. Reads outside a transaction go as they are.
   */
  settings?: Record<string, string>;
  /** Told of each statement the view sends (BEGIN, the settings and COMMIT included): a request's count, for the metrics. */
  onStatement?: () => void;
}

/** A view of `db` with `settings` set in every write's transaction (ViewOptions.settings). */
export function withTransactionSettings(db: Db, settings: Record<string, string>): Db {
  return databaseView(db, { settings });
}

/**
 * A view of `db` sharing its driver (the same pool or PGlite session), with what `options` adds.
 * Made per request, so it costs a Kysely instance and nothing per statement beyond what it adds.
 */
export function databaseView(db: Db, options: ViewOptions): Db {
  const base = opened.get(db);
  if (!base) throw new Error('a database view needs a database opened by openShared');
  const { settings, onStatement } = options;
  const apply = settings && Object.keys(settings).length > 0
    ? CompiledQuery.raw(
      `select ${Object.keys(settings).map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
      Object.entries(settings).flat(),
    )
    : undefined;
  const driver = new ViewDriver(base.driver, apply, onStatement ?? (() => {}));
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => base.dialect.createAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => base.dialect.createIntrospector(kysely),
      createQueryCompiler: () => base.dialect.createQueryCompiler(),
    },
  });
}

class ViewConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection, private readonly apply: CompiledQuery | undefined, readonly counted: () => void) {}

  send<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.counted();
    return this.inner.executeQuery<R>(query);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.apply || this.inTransaction || !WRITE.test(query.sql)) return this.send<R>(query);
    await this.send(CompiledQuery.raw('begin'));
    try {
      await this.send(this.apply);
      const result = await this.send<R>(query);
      await this.send(CompiledQuery.raw('commit'));
      return result;
    } catch (error) {
      await this.send(CompiledQuery.raw('rollback')).catch(() => {});
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.counted();
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The shared driver, with the settings applied at each transaction's start; it never closes what it shares. */
class ViewDriver implements Driver {
  constructor(private readonly base: Driver, private readonly apply: CompiledQuery | undefined, private readonly counted: () => void) {}

  async init() {}
  async acquireConnection() { return new ViewConnection(await this.base.acquireConnection(), this.apply, this.counted); }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const own = connection as ViewConnection;
    this.counted();
    await this.base.beginTransaction(own.inner, settings);
    own.inTransaction = true;
    if (this.apply) await own.send(this.apply);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const own = connection as ViewConnection;
    own.inTransaction = false;
    this.counted();
    await this.base.commitTransaction(own.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const own = connection as ViewConnection;
    own.inTransaction = false;
    this.counted();
    await this.base.rollbackTransaction(own.inner);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    this.counted();
    await this.base.savepoint!((connection as ViewConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    this.counted();
    await this.base.rollbackToSavepoint!((connection as ViewConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    this.counted();
    await this.base.releaseSavepoint!((connection as ViewConnection).inner, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection) { await this.base.releaseConnection((connection as ViewConnection).inner); }

  async destroy() {}
}
