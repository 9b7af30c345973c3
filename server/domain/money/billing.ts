import { Decimal } from 'decimal.js';
import type { EventActor } from '../../platform/events.js';
import { takeNumber, TAKEN_NUMBER } from '../../platform/numbering.js';
import { sql } from 'kysely';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { emit, type EventServices } from '../events/catalogue.js';

/** Money to the cent, half up: every stored amount goes through this. */
export const toCents = (value: Decimal.Value) => new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export interface BilledPolicy { id: string; policyNo: string; premium: Decimal.Value }

export interface NewInvoice {
  clientId: string;
  currency: string;
  exchangeRate: Decimal.Value;
  /** The policies it bills: one for a policy's own invoice, several for a cart checkout. */
  policies: BilledPolicy[];
  description?: string;
  /** The staff member who raised it (a staff sale, a draft invoiced by staff); none for a client's own purchase. */
  createdByStaffId?: string | null;
  /** Who made the change that raised it, as its `invoice.created` names them. */
  actor: EventActor;
}

/**
 * Raises an invoice (amount = the premiums it bills) with one item per policy, inside the caller's
 * transaction, and records `invoice.created`: every invoice is raised here. A single policy's
 * invoice also names it in `policy_id` (the seed's policyId).
 */
export async function raiseInvoice(services: EventServices, scope: TransactionScope, invoice: NewInvoice, today: string, at: Date) {
  const amount = invoice.policies.reduce((sum, p) => sum.plus(toCents(p.premium)), new Decimal(0));
  const single = invoice.policies.length === 1 ? invoice.policies[0] : undefined;
  const items = invoice.policies.map((p) => ({ policy_id: p.id, amount: toCents(p.premium).toFixed(2) }));
  // One statement: its number, the invoice and its items (a chain of data-modifying CTEs).
  const row = await scope.db
    .with('taken_number', takeNumber(scope, 'INV'))
    .with('invoice', (db) => db.insertInto('invoices').values({
      tenant_id: scope.tenantId,
      invoice_no: TAKEN_NUMBER,
      policy_id: single?.id ?? null,
      client_id: invoice.clientId,
      currency: invoice.currency,
      exchange_rate: new Decimal(invoice.exchangeRate).toString(),
      amount: amount.toFixed(2),
      converted_amount: toCents(amount.mul(invoice.exchangeRate)).toFixed(2),
      description: invoice.description
        ?? (single ? `Premium for policy ${single.policyNo}` : `Premiums for policies ${invoice.policies.map((p) => p.policyNo).join(', ')}`),
      invoice_date: today,
      created_by_staff_id: invoice.createdByStaffId ?? null,
      created_at: at,
      updated_at: at,
    }).returning(['id', 'invoice_no', 'tenant_id']))
    .with('item', (db) => db.insertInto('invoice_items').columns(['tenant_id', 'invoice_id', 'policy_id', 'amount'])
      .expression((eb) => eb.selectFrom(['invoice', sql<{ policy_id: string; amount: string }>`jsonb_to_recordset(${JSON.stringify(items)}::jsonb)`
        .as<'billed'>(sql`billed(policy_id uuid, amount numeric)`)])
        .select(['invoice.tenant_id', 'invoice.id as invoice_id', 'billed.policy_id', 'billed.amount'])))
    .selectFrom('invoice').select(['id', 'invoice_no']).executeTakeFirstOrThrow();
  await emit(services, scope, invoice.actor, { type: 'invoice.created', object: { type: 'invoice', id: row.id }, data: {} }, at);
  return row;
}

/**
 * A re-priced policy's item takes its new premium and its invoice the new total (the sum of its
 * items). Callers allow it only while nothing was paid.
 */
export async function rebillPolicy(scope: TransactionScope, policyId: string, premium: Decimal.Value, at: Date) {
  const item = await scope.updateTable('invoice_items').set({ amount: toCents(premium).toFixed(2) })
    .where('policy_id', '=', policyId).returning('invoice_id').executeTakeFirst();
  if (!item) return;
  const items = await scope.selectFrom('invoice_items').select('amount').where('invoice_id', '=', item.invoice_id).execute();
  const amount = items.reduce((sum, i) => sum.plus(i.amount), new Decimal(0));
  const invoice = await scope.selectFrom('invoices').select('exchange_rate').where('id', '=', item.invoice_id).executeTakeFirstOrThrow();
  await scope.updateTable('invoices').set({
    amount: amount.toFixed(2),
    converted_amount: toCents(amount.mul(invoice.exchange_rate)).toFixed(2),
    updated_at: at,
  }).where('id', '=', item.invoice_id).execute();
}
