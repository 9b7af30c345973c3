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
    return this.db.transaction().execute((trx) => work(new TransactionScope(trx, this.tenantId)));
  }
}

/**
 * A tenant's scope inside one database transaction: what `TenantScope.transaction` hands its work,
 * or a job makes over the transaction it opened.
 */
export class TransactionScope extends TenantScope {
  readonly inTransaction = true as const;
  constructor(override readonly db: Transaction<Database>, tenantId: string) { super(db, tenantId); }
}
