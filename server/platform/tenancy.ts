import {
  sql, type DeleteQueryBuilder, type Transaction, type DeleteResult, type Insertable, type Kysely, type SelectQueryBuilder,
  type UpdateQueryBuilder, type UpdateResult,
} from 'kysely';
import type { Database, TenantTable } from './db/schema.js';

/**
 * The one way handlers reach tenant-owned tables: every select, update and delete it builds is
 * already restricted to the tenant, and every insert carries the tenant's id.
 */
export class TenantScope {
  constructor(readonly db: Kysely<Database>, readonly tenantId: string) {}

  private own(table: TenantTable) {
    return sql<boolean>`${sql.ref(`${table}.tenant_id`)} = ${this.tenantId}`;
  }

  // The casts only name the table type Kysely cannot narrow through a generic parameter.
  selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Database, T, {}> {
    const query = this.db.selectFrom(table as TenantTable) as unknown as SelectQueryBuilder<Database, T, {}>;
    return query.where(this.own(table));
  }

  updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Database, T, T, UpdateResult> {
    const query = this.db.updateTable(table as TenantTable) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
    return query.where(this.own(table));
  }

  deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Database, T, DeleteResult> {
    const query = this.db.deleteFrom(table as TenantTable) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;
    return query.where(this.own(table));
  }

  insertInto<T extends TenantTable>(table: T, values: Omit<Insertable<Database[T]>, 'tenant_id'> | Omit<Insertable<Database[T]>, 'tenant_id'>[]) {
    const rows = (Array.isArray(values) ? values : [values]).map((row) => ({ ...row, tenant_id: this.tenantId }));
    return this.db.insertInto(table).values(rows as any);
  }

  /**
   * Runs `work` in one database transaction (joining the one this scope is already in), with a
   * scope bound to it: a function whose writes must commit or roll back with its caller's asks for
   * a `TransactionScope`, so a call from outside a transaction does not compile.
   */
  transaction<R>(work: (scope: TransactionScope) => Promise<R>): Promise<R> {
    if (this.db.isTransaction) return work(new TransactionScope(this.db as Transaction<Database>, this.tenantId));
    return inTransaction(this.db, (trx) => work(new TransactionScope(trx, this.tenantId)));
  }
}

/** What each open transaction still does once its work is done, just before it commits (`beforeCommit`). */
const finishing = new WeakMap<Transaction<Database>, (() => Promise<void>)[]>();
/** The transactions `inTransaction` opened: only they run what is asked before their commit. */
const opened = new WeakSet<Transaction<Database>>();

/**
 * Runs `work` in a new database transaction, then what was asked to run before its commit
 * (`beforeCommit`), then commits: every transaction the API opens goes through here (or through
 * `TenantScope.transaction`, which does), so what must see a change's final rows (an event's
 * snapshot, taken after every reaction ran) sees them. `test/static/architecture.test.ts` names
 * a `.transaction().execute(` anywhere else.
 */
export function inTransaction<R>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<R>): Promise<R> {
  return db.transaction().execute(async (trx) => {
    opened.add(trx);
    const result = await work(trx);
    // A step may ask for more (none does yet): run until none is left, in the order asked.
    for (let steps = finishing.get(trx); steps?.length; steps = finishing.get(trx)) {
      finishing.delete(trx);
      for (const step of steps) await step();
    }
    return result;
  });
}

/**
 * Asks `trx` to run `step` once its work is done, before it commits (in the transaction, so a
 * failing step rolls the whole change back). The transaction must have been opened by `inTransaction`.
 */
export function beforeCommit(trx: Transaction<Database>, step: () => Promise<void>): void {
  // Loud, not lost: a step asked of a transaction opened elsewhere would never run.
  if (!opened.has(trx)) throw new Error('beforeCommit: the transaction was not opened by inTransaction (server/platform/tenancy.ts)');
  const steps = finishing.get(trx);
  if (steps) steps.push(step);
  else finishing.set(trx, [step]);
}

/**
 * A tenant's scope inside one database transaction: what `TenantScope.transaction` hands its work,
 * or a job makes over the transaction it opened.
 */
export class TransactionScope extends TenantScope {
  readonly inTransaction = true as const;
  constructor(override readonly db: Transaction<Database>, tenantId: string) { super(db, tenantId); }
}
