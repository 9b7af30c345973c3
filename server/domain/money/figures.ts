import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { TransactionStatus } from '../../platform/db/schema.js';
import { AWAITING, CONFIRMED } from '../states/transaction.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { toCents } from './billing.js';

export type InvoiceFigures = components['schemas']['InvoiceFigures'];

/** What an invoice's payments add up to, by kind of money. */
export interface PaymentSums { confirmed: Decimal; awaiting: Decimal; pendingCheckout: Decimal }

/** An invoice closed without being paid (its policy was closed): when and why, or nulls while it is open. */
export interface InvoiceVoid { voided_at: Date | string | null; void_reason: string | null }

/**
 * An invoice's figures from its amount and payments (InvoiceFigures in the contract): confirmed
 * money decides the status; money awaiting approval or verification counts as paid, not approved.
 * An invoice voided (`voided`) is closed with nothing left to pay: what was unpaid is written off.
 */
export function invoiceFigures(amount: Decimal.Value, exchangeRate: Decimal.Value, sums: PaymentSums, voided?: InvoiceVoid): InvoiceFigures {
  const total = new Decimal(amount);
  const paid = sums.confirmed.plus(sums.awaiting);
  const closedUnpaid = voided?.voided_at ? { closedAt: new Date(voided.voided_at).toISOString(), closedReason: voided.void_reason! } : undefined;
  const unpaid = closedUnpaid ? new Decimal(0) : Decimal.max(0, total.minus(paid));
  const converted = (value: Decimal) => toCents(value.mul(exchangeRate)).toNumber();
  const status = invoiceStatus(total, sums.confirmed);
  return {
    amountPaid: paid.toNumber(),
    amountUnpaid: unpaid.toNumber(),
    amountApproved: sums.confirmed.toNumber(),
    amountUnapproved: sums.awaiting.toNumber(),
    convertedAmountPaid: converted(paid),
    convertedAmountUnpaid: converted(unpaid),
    convertedAmountApproved: converted(sums.confirmed),
    convertedAmountUnapproved: converted(sums.awaiting),
    status,
    isClosed: closedUnpaid !== undefined || status === 'FULLY_PAID' || status === 'OVERPAID',
    isDebit: sums.confirmed.greaterThan(0),
    ...closedUnpaid,
  };
}

/** An invoice's status: what confirmed money makes of its amount. */
export function invoiceStatus(amount: Decimal.Value, confirmed: Decimal): InvoiceFigures['status'] {
  const total = new Decimal(amount);
  return confirmed.isZero() && !total.isZero() ? 'UNPAID'
    : confirmed.lessThan(total) ? 'PARTIALLY_PAID'
      : confirmed.equals(total) ? 'FULLY_PAID' : 'OVERPAID';
}

/** The payment sums of some invoices, keyed by invoice id (invoices with no payment read zero). */
export async function paymentSums(scope: TenantScope, invoiceIds: string[]): Promise<Map<string, PaymentSums>> {
  const out = new Map(invoiceIds.map((id) => [id, { confirmed: new Decimal(0), awaiting: new Decimal(0), pendingCheckout: new Decimal(0) }]));
  if (invoiceIds.length === 0) return out;
  const rows = await scope.selectFrom('transactions')
    .select(['invoice_id', 'status', sql<string>`sum(amount)`.as('total')])
    .where('invoice_id', 'in', invoiceIds)
    .groupBy(['invoice_id', 'status'])
    .execute();
  for (const row of rows) addToSums(out.get(row.invoice_id)!, row);
  return out;
}

/** The sums of one invoice's payments from their totals by status (`invoicePaymentTotals`' column). */
export function sumsOfTotals(totals: PaymentTotal[]): PaymentSums {
  const sums = { confirmed: new Decimal(0), awaiting: new Decimal(0), pendingCheckout: new Decimal(0) };
  for (const total of totals) addToSums(sums, total);
  return sums;
}

interface PaymentTotal { status: string; total: string }

function addToSums(sums: PaymentSums, { status, total }: PaymentTotal) {
  if (CONFIRMED.includes(status as TransactionStatus)) sums.confirmed = sums.confirmed.plus(total);
  else if (AWAITING.includes(status as TransactionStatus)) sums.awaiting = sums.awaiting.plus(total);
  else if (status === 'PENDING_PAYMENT') sums.pendingCheckout = sums.pendingCheckout.plus(total);
}

/**
 * An invoice's payment totals by status as one JSON column of a row holding the invoice (as
 * `invoice`, the table or its alias), totals as text so they stay decimal: what `paymentSums`
 * reads, without a query of its own.
 */
export const paymentTotalsOf = (invoice: 'invoices' | 'invoice') => sql<PaymentTotal[]>`(select coalesce(json_agg(json_build_object('status', s.status, 'total', s.total::text)), '[]'::json)
  from (select t.status, sum(t.amount) as total from transactions t where t.invoice_id = ${sql.ref(`${invoice}.id`)} and t.tenant_id = ${sql.ref(`${invoice}.tenant_id`)}
        group by t.status) s)`;

/** `paymentTotalsOf` the `invoices` row of a query. */
export const invoicePaymentTotals = paymentTotalsOf('invoices');

/** What a new payment may still claim: the amount less all money paid, awaited or in checkout. */
export const remainingToPay = (amount: Decimal.Value, sums: PaymentSums) =>
  new Decimal(amount).minus(sums.confirmed).minus(sums.awaiting).minus(sums.pendingCheckout);
