import { sql } from 'kysely';
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
