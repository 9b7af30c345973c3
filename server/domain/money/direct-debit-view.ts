import type { components, operations } from '../../../generated/api.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { invoiceFigures, paymentSums } from './figures.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { ownRow } from '../../platform/ownership.js';

export type DirectDebit = components['schemas']['DirectDebit'];
export type DirectDebitDetails = components['schemas']['DirectDebitDetails'];
type Run = components['schemas']['DirectDebitRun'];

/** The client's mandates joined to their policy and invoice. Callers add their filters. */
export function directDebitQuery(scope: TenantScope, clientId: string) {
  return scope.selectFrom('direct_debits')
    .innerJoin('policies as policy', (join) => join.onRef('policy.id', '=', 'direct_debits.policy_id')
      .onRef('policy.tenant_id', '=', 'direct_debits.tenant_id'))
    .innerJoin('invoices as invoice', (join) => join.onRef('invoice.id', '=', 'direct_debits.invoice_id')
      .onRef('invoice.tenant_id', '=', 'direct_debits.tenant_id'))
    .where('direct_debits.client_id', '=', clientId);
}

export const directDebitColumns = [
  'direct_debits.id', 'direct_debits.status', 'direct_debits.policy_id', 'direct_debits.amount', 'direct_debits.currency',
  'direct_debits.frequency', 'direct_debits.start_date', 'direct_debits.end_date', 'direct_debits.next_debit_date',
  'direct_debits.payment_method', 'direct_debits.mobile_number', 'direct_debits.description', 'direct_debits.cancel_reason',
  'direct_debits.cancelled_at', 'direct_debits.completed_at', 'direct_debits.completion_reason', 'direct_debits.created_at',
  'direct_debits.updated_at',
  'policy.policy_no', 'policy.policy_type', 'policy.state as policy_state', 'policy.premium as policy_premium',
  'policy.currency as policy_currency',
  'invoice.id as invoice_id', 'invoice.invoice_no', 'invoice.currency as invoice_currency', 'invoice.amount as invoice_amount',
  'invoice.exchange_rate as invoice_exchange_rate', 'invoice.voided_at', 'invoice.void_reason',
] as const;

export const directDebitRows = (scope: TenantScope, clientId: string) => directDebitQuery(scope, clientId).select(directDebitColumns);
export type DirectDebitRow = Awaited<ReturnType<ReturnType<typeof directDebitRows>['executeTakeFirstOrThrow']>>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Rows -> DirectDebits, each invoice's figures derived from its payments (one query for all). */
export async function toDirectDebits(scope: TenantScope, rows: DirectDebitRow[]): Promise<DirectDebit[]> {
  const sums = await paymentSums(scope, [...new Set(rows.map((row) => row.invoice_id))]);
  return rows.map((row) => {
    const figures = invoiceFigures(row.invoice_amount, row.invoice_exchange_rate, sums.get(row.invoice_id)!, row);
    return {
      id: row.id,
      status: row.status,
      policyId: row.policy_id,
      policy: {
        id: row.policy_id,
        policyNo: row.policy_no,
        policyType: row.policy_type as DirectDebit['policy']['policyType'],
        state: row.policy_state,
        premium: Number(row.policy_premium),
        currency: row.policy_currency,
      },
      invoice: {
        id: row.invoice_id,
        invoiceNo: row.invoice_no,
        currency: row.invoice_currency,
        amount: Number(row.invoice_amount),
        amountPaid: figures.amountPaid,
        amountUnpaid: figures.amountUnpaid,
        status: figures.status,
        isClosed: figures.isClosed,
      },
      amount: Number(row.amount),
      currency: row.currency,
      frequency: row.frequency,
      startDate: row.start_date,
      endDate: row.end_date,
      nextDebitDate: row.next_debit_date,
      paymentMethod: row.payment_method,
      mobileNumber: row.mobile_number,
      description: row.description,
      cancelReason: row.cancel_reason,
      cancelledAt: iso(row.cancelled_at),
      completedAt: iso(row.completed_at),
      completionReason: row.completion_reason,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
    };
  });
}

/** A mandate's due dates so far, oldest first, each with its payment as it stands now. */
export async function historyOf(scope: TenantScope, directDebitId: string): Promise<Run[]> {
  const runs = await scope.selectFrom('direct_debit_runs')
    .leftJoin('transactions as payment', (join) => join.onRef('payment.id', '=', 'direct_debit_runs.transaction_id')
      .onRef('payment.tenant_id', '=', 'direct_debit_runs.tenant_id'))
    .select(['direct_debit_runs.due_date', 'direct_debit_runs.outcome', 'direct_debit_runs.amount', 'direct_debit_runs.note',
      'direct_debit_runs.created_at', 'payment.id as payment_id', 'payment.transaction_no', 'payment.status as payment_status', 'payment.amount as payment_amount'])
    .where('direct_debit_runs.direct_debit_id', '=', directDebitId)
    .orderBy('direct_debit_runs.due_date')
    .execute();
  return runs.map((run) => ({
    dueDate: run.due_date,
    outcome: run.outcome,
    amount: Number(run.amount),
    note: run.note,
    transaction: run.payment_id === null ? null
      : { id: run.payment_id, transactionNo: run.transaction_no!, status: run.payment_status!, amount: Number(run.payment_amount) },
    createdAt: iso(run.created_at)!,
  }));
}

/**
 * The signed-in client's mandate with this id, or 404 (another client's or tenant's id included).
 * `lock` holds the mandate's row until the transaction ends.
 */
export const ownDirectDebit = (scope: TenantScope, id: string, clientId: string, options: { lock?: boolean } = {}): Promise<DirectDebitRow> =>
  ownRow(directDebitRows(scope, clientId), 'direct_debits', id, 'Direct debit', options);

/** One mandate as the API answers it, with its history. */
export async function loadDirectDebit(scope: TenantScope, id: string, clientId: string): Promise<DirectDebitDetails> {
  const [debit] = await toDirectDebits(scope, [await ownDirectDebit(scope, id, clientId)]);
  return { ...debit, history: await historyOf(scope, id) };
}

export type DirectDebitListQuery = NonNullable<operations['listDirectDebits']['parameters']['query']>;

/** One page of the client's mandates, newest first, filtered by policy when asked. */
export async function listClientDirectDebits(scope: TenantScope, clientId: string, query: DirectDebitListQuery) {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const filtered = directDebitQuery(scope, clientId)
    .$if(query.policyId !== undefined, (qb) => qb.where('direct_debits.policy_id', '=', query.policyId!));
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(directDebitColumns), 'direct_debits', { page, limit, after: query.after });
  return { data: await toDirectDebits(scope, rows), paginator };
}
