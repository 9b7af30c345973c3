import { sql, type RawBuilder } from 'kysely';
import type { components } from '../../../generated/api.js';
import { invoiceFigures, invoicePaymentTotals, paymentSums, sumsOfTotals, type PaymentSums } from './figures.js';
import { Decimal } from 'decimal.js';
import { compiledQuery } from '../../platform/db/compiled-query.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { idOrNumberAs, isId } from '../../platform/filters.js';
import { consume } from '../../platform/rate-limit.js';
import { TenantScope } from '../../platform/tenancy.js';

export type Invoice = components['schemas']['Invoice'];
export type ExternalInvoice = components['schemas']['ExternalInvoice'];
type InvoicePolicy = components['schemas']['InvoicePolicy'];
type InvoiceTransaction = components['schemas']['InvoiceTransaction'];

export const invoiceColumns = [
  'invoices.id', 'invoices.invoice_no', 'invoices.currency', 'invoices.exchange_rate', 'invoices.amount', 'invoices.converted_amount',
  'invoices.description', 'invoices.invoice_date', 'invoices.policy_id', 'invoices.created_by_staff_id', 'invoices.created_at', 'invoices.updated_at',
  'invoices.voided_at', 'invoices.void_reason',
] as const;

/**
 * Whether the invoice in `invoiceColumn` (of `tenantColumn`'s tenant) bills a policy meeting
 * `condition` on `p` (its policies row): the policy filter of the invoice and payment lists.
 */
export const billsPolicy = (invoiceColumn: string, tenantColumn: string, condition: RawBuilder<boolean>) => sql<boolean>`exists (
  select 1 from invoice_items item join policies p on p.id = item.policy_id and p.tenant_id = item.tenant_id
  where item.invoice_id = ${sql.ref(invoiceColumn)} and item.tenant_id = ${sql.ref(tenantColumn)} and ${condition})`;

/** The client's invoices with their columns. Callers add filters and order. */
export const invoiceRows = (scope: TenantScope, clientId: string) =>
  scope.selectFrom('invoices').where('invoices.client_id', '=', clientId).select(invoiceColumns);
export type InvoiceRow = Awaited<ReturnType<ReturnType<typeof invoiceRows>['executeTakeFirstOrThrow']>>;

/** A billed policy's row -> InvoicePolicy. */
const toInvoicePolicy = (row: { id: string; policy_no: string; policy_type: string; state: InvoicePolicy['state']; amount: string | number }): InvoicePolicy =>
  ({ id: row.id, policyNo: row.policy_no, policyType: row.policy_type as InvoicePolicy['policyType'], state: row.state, amount: Number(row.amount) });

/** A payment's row -> InvoiceTransaction. */
const toInvoiceTransaction = (payment: { id: string; transaction_no: string; payment_method: InvoiceTransaction['paymentMethod'];
  status: InvoiceTransaction['status']; amount: string | number; created_at: Date | string }): InvoiceTransaction =>
  ({ id: payment.id, transactionNo: payment.transaction_no, paymentMethod: payment.payment_method, status: payment.status,
    amount: Number(payment.amount), createdAt: new Date(payment.created_at).toISOString() });

/** The policies each invoice bills, keyed by invoice id. */
export async function billedPolicies(scope: TenantScope, invoiceIds: string[]): Promise<Map<string, InvoicePolicy[]>> {
  const out = new Map<string, InvoicePolicy[]>(invoiceIds.map((id) => [id, []]));
  if (invoiceIds.length === 0) return out;
  const rows = await scope.selectFrom('invoice_items')
    .innerJoin('policies', (join) => join.onRef('policies.id', '=', 'invoice_items.policy_id').onRef('policies.tenant_id', '=', 'invoice_items.tenant_id'))
    .select(['invoice_items.invoice_id', 'invoice_items.amount', 'policies.id', 'policies.policy_no', 'policies.policy_type', 'policies.state'])
    .where('invoice_items.invoice_id', 'in', invoiceIds).orderBy('policies.policy_no').execute();
  for (const row of rows) out.get(row.invoice_id)!.push(toInvoicePolicy(row));
  return out;
}

/** Rows -> Invoices, with their policies, payments and derived figures. */
export async function toInvoices(scope: TenantScope, rows: InvoiceRow[]): Promise<Invoice[]> {
  const ids = rows.map((row) => row.id);
  const [sums, policies, payments] = [await paymentSums(scope, ids), await billedPolicies(scope, ids), new Map<string, InvoiceTransaction[]>(ids.map((id) => [id, []]))];
  if (ids.length > 0) {
    const paymentRows = await scope.selectFrom('transactions').select(['id', 'invoice_id', 'transaction_no', 'payment_method', 'status', 'amount', 'created_at'])
      .where('invoice_id', 'in', ids).orderBy('created_at').orderBy('id').execute();
    for (const payment of paymentRows) payments.get(payment.invoice_id)!.push(toInvoiceTransaction(payment));
  }
  return rows.map((row) => toInvoice(row, sums.get(row.id)!, policies.get(row.id)!, payments.get(row.id)!));
}

/**
 * One invoice of the company as `toInvoices` answers it, in one query (its payment totals, the
 * policies it bills and its payments as JSON columns of its row): an event's snapshot.
 */
export async function companyInvoice(scope: TenantScope, id: string): Promise<Invoice> {
  const row = await scope.selectFrom('invoices').where('invoices.id', '=', id).select(invoiceColumns)
    .select(invoicePaymentTotals.as('payment_totals'))
    .select(sql<Parameters<typeof toInvoicePolicy>[0][]>`(select coalesce(json_agg(json_build_object('id', p.id, 'policy_no', p.policy_no,
        'policy_type', p.policy_type, 'state', p.state, 'amount', item.amount) order by p.policy_no), '[]'::json)
      from invoice_items item join policies p on p.id = item.policy_id and p.tenant_id = item.tenant_id
      where item.invoice_id = invoices.id and item.tenant_id = invoices.tenant_id)`.as('policies_json'))
    .select(sql<Parameters<typeof toInvoiceTransaction>[0][]>`(select coalesce(json_agg(json_build_object('id', t.id, 'transaction_no', t.transaction_no,
        'payment_method', t.payment_method, 'status', t.status, 'amount', t.amount, 'created_at', t.created_at) order by t.created_at, t.id), '[]'::json)
      from transactions t where t.invoice_id = invoices.id and t.tenant_id = invoices.tenant_id)`.as('transactions_json'))
    .executeTakeFirstOrThrow();
  return toInvoice(row, sumsOfTotals(row.payment_totals), row.policies_json.map(toInvoicePolicy), row.transactions_json.map(toInvoiceTransaction));
}

/** An invoice's row, its payment sums, the policies it bills and its payments -> Invoice. */
function toInvoice(row: InvoiceRow, sums: PaymentSums, billed: InvoicePolicy[], payments: InvoiceTransaction[]): Invoice {
  return {
    id: row.id,
    invoiceNo: row.invoice_no,
    currency: row.currency,
    exchangeRate: Number(row.exchange_rate),
    amount: Number(row.amount),
    convertedAmount: Number(row.converted_amount),
    description: row.description,
    invoiceDate: row.invoice_date,
    policyId: row.policy_id,
    policy: row.policy_id === null ? null : billed.find((p) => p.id === row.policy_id) ?? null,
    policies: billed,
    transactions: payments,
    createdBy: row.created_by_staff_id === null ? null : { name: 'staff', id: row.created_by_staff_id },
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    ...invoiceFigures(row.amount, row.exchange_rate, sums, row),
  };
}

/** Number lookups one caller address may make in an hour: invoice numbers run in sequence. */
export const EXTERNAL_LOOKUPS_PER_HOUR = 30;

export interface ExternalLookup {
  /** The invoice's id, or its number with `amount` as printed on it. */
  invoiceNoOrId: string;
  amount?: number;
  ip: string;
}

/**
 * One query: the invoice, its payment totals and the numbers of the policies it bills; one built
 * once for a lookup by id and one by number (a payer's page reads it on every visit).
 */
const externalInvoiceQuery = (byNumber: boolean) => compiledQuery((db, params: { tenantId: string; ref: string }) =>
  new TenantScope(db, params.tenantId).selectFrom('invoices')
    .select(['id', 'invoice_no', 'currency', 'amount', 'exchange_rate', 'invoice_date', 'description', 'voided_at', 'void_reason'])
    .select(invoicePaymentTotals.as('payment_totals'))
    .select(sql<string[]>`(select coalesce(json_agg(p.policy_no order by p.policy_no), '[]'::json)
      from invoice_items item join policies p on p.id = item.policy_id and p.tenant_id = item.tenant_id
      where item.invoice_id = invoices.id and item.tenant_id = invoices.tenant_id)`.as('policy_nos'))
    .where(idOrNumberAs(byNumber, params.ref, 'id', 'invoice_no')));
const externalInvoiceBy = { id: externalInvoiceQuery(false), number: externalInvoiceQuery(true) };

/**
 * An invoice of the tenant (`insurer`), by number or id, or 404: what a payer who is not the
 * client needs to pay it, and no more. Ids are random; numbers run in sequence, so a lookup by
 * number also needs the invoice's amount (printed beside it) and is limited per address: nobody
 * can walk the numbers to read every invoice. A wrong amount is the same 404 as a wrong number.
 */
export async function externalInvoice(scope: TenantScope, services: { db: Db; now: Date }, insurer: string, lookup: ExternalLookup): Promise<ExternalInvoice> {
  const byNumber = !isId(lookup.invoiceNoOrId);
  if (byNumber) {
    if (lookup.amount === undefined) throw badRequest('query.amount is required when the invoice is looked up by number (send the amount printed on the invoice, or look it up by id)');
    await consume(services.db, `external-invoice:address:${scope.tenantId}:${lookup.ip}`, { max: EXTERNAL_LOOKUPS_PER_HOUR, windowSeconds: 3600 }, services.now);
  }
  const [row] = await externalInvoiceBy[byNumber ? 'number' : 'id'](scope.db, { tenantId: scope.tenantId, ref: lookup.invoiceNoOrId });
  if (!row || (byNumber && !new Decimal(row.amount).equals(lookup.amount!))) throw notFound('Invoice');
  const figures = invoiceFigures(row.amount, row.exchange_rate, sumsOfTotals(row.payment_totals), row);
  return {
    id: row.id,
    invoiceNo: row.invoice_no,
    currency: row.currency,
    amount: Number(row.amount),
    invoiceDate: row.invoice_date,
    description: row.description,
    policyNos: row.policy_nos,
    insurer,
    amountPaid: figures.amountPaid,
    amountUnpaid: figures.amountUnpaid,
    status: figures.status,
    isClosed: figures.isClosed,
  };
}
