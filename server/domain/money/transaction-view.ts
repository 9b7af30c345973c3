import type { components } from '../../../generated/api.js';
import { notFound } from '../../platform/errors.js';
import { invoiceFigures, paymentSums, paymentTotalsOf, sumsOfTotals, type PaymentSums } from './figures.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffReferences } from '../staff/names.js';
import { checkoutExpiresAt } from './payments.js';

export type Transaction = components['schemas']['Transaction'];
export type PaymentNextAction = components['schemas']['PaymentNextAction'];

/** The company's payments with their invoices. Callers narrow them to a client, or to a staff member's reach, and add filters. */
export function transactionQuery(scope: TenantScope) {
  return scope.selectFrom('transactions')
    .innerJoin('invoices as invoice', (join) => join.onRef('invoice.id', '=', 'transactions.invoice_id')
      .onRef('invoice.tenant_id', '=', 'transactions.tenant_id'));
}

/** The client's payments with their invoices. Callers add their filters. */
export const clientTransactions = (scope: TenantScope, clientId: string) =>
  transactionQuery(scope).where('transactions.client_id', '=', clientId);

export const transactionColumns = [
  'transactions.id', 'transactions.transaction_no', 'transactions.invoice_id', 'transactions.policy_id', 'transactions.payment_method',
  'transactions.status', 'transactions.amount', 'transactions.currency', 'transactions.exchange_rate', 'transactions.converted_amount',
  'transactions.transaction_type', 'transactions.date_received', 'transactions.payee', 'transactions.payment_institution',
  'transactions.description', 'transactions.cheque_date', 'transactions.name_on_cheque', 'transactions.cheque_no', 'transactions.cheque_type',
  'transactions.document_ids', 'transactions.checkout_url', 'transactions.mobile_number', 'transactions.created_at', 'transactions.updated_at',
  'transactions.reviewed_by_staff_id', 'transactions.reviewed_at', 'transactions.client_id', 'transactions.created_by_staff_id', 'transactions.review_notes', 'transactions.receipt_no',
  'invoice.invoice_no', 'invoice.currency as invoice_currency', 'invoice.amount as invoice_amount', 'invoice.exchange_rate as invoice_exchange_rate',
  'invoice.voided_at', 'invoice.void_reason',
] as const;

export const transactionRows = (scope: TenantScope, clientId: string) => clientTransactions(scope, clientId).select(transactionColumns);
export type TransactionRow = Awaited<ReturnType<ReturnType<typeof transactionRows>['executeTakeFirstOrThrow']>>;

/**
 * What the payer must do, at `now`, for a payment to go on: an ONLINE payment's checkout to
 * complete while it is open, a MOBILE_MONEY payment's prompt to approve while the provider waits
 * for it; null for every other payment and once it is settled or its checkout expired.
 */
export function nextAction(payment: Pick<TransactionRow, 'payment_method' | 'status' | 'checkout_url' | 'created_at'>, now: Date): PaymentNextAction | null {
  if (payment.payment_method === 'ONLINE' && payment.status === 'PENDING_PAYMENT' && payment.checkout_url !== null) {
    const expiresAt = checkoutExpiresAt(new Date(payment.created_at));
    return now.getTime() > expiresAt.getTime() ? null : { type: 'REDIRECT_TO_CHECKOUT', url: payment.checkout_url, expiresAt: expiresAt.toISOString() };
  }
  if (payment.payment_method === 'MOBILE_MONEY' && payment.status === 'PENDING_VERIFICATION') {
    return { type: 'APPROVE_MOBILE_MONEY', url: payment.checkout_url, expiresAt: null };
  }
  return null;
}

/**
 * Rows -> Transactions, each with its invoice's figures as they stand now, the staff member who
 * reviewed it named, and what the payer must still do at `now` (`nextAction`).
 */
export async function toTransactions(scope: TenantScope, rows: TransactionRow[], now: Date,
  /** The invoices' payment sums when the caller read them with its rows. */
  known?: Map<string, PaymentSums>): Promise<Transaction[]> {
  const sums = known ?? await paymentSums(scope, [...new Set(rows.map((r) => r.invoice_id))]);
  const named = await staffReferences(scope, rows.flatMap((r) => [r.reviewed_by_staff_id, r.created_by_staff_id]));
  return rows.map((row) => {
    const figures = invoiceFigures(row.invoice_amount, row.invoice_exchange_rate, sums.get(row.invoice_id)!, row);
    return {
      id: row.id,
      transactionNo: row.transaction_no,
      invoiceId: row.invoice_id,
      policyId: row.policy_id,
      paymentMethod: row.payment_method,
      status: row.status,
      amount: Number(row.amount),
      currency: row.currency,
      exchangeRate: Number(row.exchange_rate),
      convertedAmount: Number(row.converted_amount),
      transactionType: row.transaction_type,
      dateReceived: row.date_received,
      payee: row.payee,
      paymentInstitution: row.payment_institution,
      description: row.description,
      cheque: row.payment_method === 'CHEQUE' && row.cheque_no !== null
        ? { chequeDate: row.cheque_date!, nameOnCheque: row.name_on_cheque!, chequeNo: row.cheque_no, chequeType: row.cheque_type! }
        : null,
      documents: row.document_ids,
      checkoutUrl: row.payment_method === 'ONLINE' ? row.checkout_url : null,
      nextAction: nextAction(row, now),
      mobileNumber: row.mobile_number,
      invoice: {
        id: row.invoice_id, invoiceNo: row.invoice_no, currency: row.invoice_currency, amount: Number(row.invoice_amount),
        amountPaid: figures.amountPaid, amountUnpaid: figures.amountUnpaid, status: figures.status, isClosed: figures.isClosed,
      },
      recordedBy: row.created_by_staff_id === null
        ? { by: 'client', id: row.client_id, staff: null }
        : { by: 'staff', id: row.created_by_staff_id, staff: named.get(row.created_by_staff_id) ?? null },
      reviewedBy: row.reviewed_by_staff_id === null ? null : named.get(row.reviewed_by_staff_id) ?? null,
      receiptNo: row.receipt_no,
      reviewedAt: row.reviewed_at === null ? null : new Date(row.reviewed_at).toISOString(),
      reviewNotes: row.review_notes,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  });
}

/** One of the client's payments as the API answers it (as the list does) at `now`, or 404: another client's is unknown. */
export async function loadTransaction(scope: TenantScope, id: string, clientId: string, now: Date): Promise<Transaction> {
  const row = await transactionRows(scope, clientId).where('transactions.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Transaction');
  return (await toTransactions(scope, [row], now))[0];
}

/** A payment of the company as the API answers it at `now`, its invoice's payment totals read in the same query: an event's snapshot. */
export async function companyTransaction(scope: TenantScope, id: string, now: Date): Promise<Transaction> {
  const row = await transactionQuery(scope).where('transactions.id', '=', id).select(transactionColumns)
    .select(paymentTotalsOf('invoice').as('payment_totals')).executeTakeFirstOrThrow();
  return (await toTransactions(scope, [row], now, new Map([[row.invoice_id, sumsOfTotals(row.payment_totals)]])))[0];
}
