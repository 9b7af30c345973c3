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

/**
 * A view of `db` in which every write runs in a transaction that has `settings` set (PostgreSQL's
 * `set_config(name, value, true)`, gone when the transaction ends): a transaction gets them as it
 * begins, a write sent on its own is wrapped in a transaction of its own. What triggers read (the
 * audit trail's `coverline.audit`) thus reaches every row a call writes, whichever code path wrote
 * it, and never outlives the call on a pooled connection. Reads outside a transaction go as they are.
 */
export function withTransactionSettings(db: Db, settings: Record<string, string>): Db {
  const base = opened.get(db);
  if (!base) throw new Error('withTransactionSettings needs a database opened by openShared');
  const apply = CompiledQuery.raw(
    `select ${Object.keys(settings).map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    Object.entries(settings).flat(),
  );
  const driver = new SettingDriver(base.driver, apply);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => base.dialect.createAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => base.dialect.createIntrospector(kysely),
      createQueryCompiler: () => base.dialect.createQueryCompiler(),
    },
  });
}

class SettingConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection, private readonly apply: CompiledQuery) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction || !WRITE.test(query.sql)) return this.inner.executeQuery<R>(query);
    await this.inner.executeQuery(CompiledQuery.raw('begin'));
    try {
      await this.inner.executeQuery(this.apply);
      const result = await this.inner.executeQuery<R>(query);
      await this.inner.executeQuery(CompiledQuery.raw('commit'));
      return result;
    } catch (error) {
      await this.inner.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The shared driver, with the settings applied at each transaction's start; it never closes what it shares. */
class SettingDriver implements Driver {
  constructor(private readonly base: Driver, private readonly apply: CompiledQuery) {}

  async init() {}
  async acquireConnection() { return new SettingConnection(await this.base.acquireConnection(), this.apply); }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const own = connection as SettingConnection;
    await this.base.beginTransaction(own.inner, settings);
    own.inTransaction = true;
    await own.inner.executeQuery(this.apply);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const own = connection as SettingConnection;
    own.inTransaction = false;
    await this.base.commitTransaction(own.inner);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const own = connection as SettingConnection;
    own.inTransaction = false;
    await this.base.rollbackTransaction(own.inner);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.base.savepoint!((connection as SettingConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.base.rollbackToSavepoint!((connection as SettingConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.base.releaseSavepoint!((connection as SettingConnection).inner, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection) { await this.base.releaseConnection((connection as SettingConnection).inner); }

  async destroy() {}
}
