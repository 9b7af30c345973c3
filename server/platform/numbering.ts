import { sql, type QueryCreator } from 'kysely';
import type { Database } from './db/schema.js';
import type { TenantScope, TransactionScope } from './tenancy.js';

/** Series of human numbers, per tenant: POL-0012, INV-0012, TRX-0012, CLM-0012, RCT-0012. */
export type Series = 'POL' | 'INV' | 'TRX' | 'CLM' | 'RCT';

/**
 * The tenant's next number in a series, taken inside the scope's transaction: the row lock on
 * the counter serialises concurrent takers, and a rolled-back transaction gives its number back.
 */
export async function nextNumber(scope: TransactionScope, series: Series): Promise<string> {
  const row = await scope.db.insertInto('tenant_sequences')
    .values({ tenant_id: scope.tenantId, name: series, last_value: 1 })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ last_value: sql`tenant_sequences.last_value + 1` }))
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return `${series}-${String(row.last_value).padStart(4, '0')}`;
}

/**
 * `nextNumber` inside the statement that writes the numbered row: a data-modifying CTE
 * (`with('taken_number', takeNumber(scope, 'POL'))`) whose one row's `number` the row's insert
 * reads (`TAKEN_NUMBER`). The same counter row, lock and format as `nextNumber`, one round trip less.
 */
export function takeNumber(scope: TransactionScope, series: Series) {
  return (db: QueryCreator<Database>) => db.insertInto('tenant_sequences')
    .values({ tenant_id: scope.tenantId, name: series, last_value: 1 })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ last_value: sql`tenant_sequences.last_value + 1` }))
    // padStart(4, '0'): at least four digits, never cut.
    .returning(sql<string>`${sql.lit(`${series}-`)} || lpad(last_value::text, greatest(4, length(last_value::text)), '0')`.as('number'));
}

/** A number given by the caller (staff recording an existing policy) where a `takeNumber` CTE would go. */
export function givenNumber(number: string) {
  return (db: QueryCreator<Database>) => db.selectNoFrom(sql<string>`${number}::text`.as('number'));
}

/** The number a `takeNumber` (or `givenNumber`) CTE holds, as a value of the insert that follows it. */
export const TAKEN_NUMBER = sql<string>`(select number from taken_number)`;
