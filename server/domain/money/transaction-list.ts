import { sql, type RawBuilder } from 'kysely';
import type { operations } from '../../../generated/api.js';
import { badRequest } from '../../platform/errors.js';
import { listOrExport } from '../../platform/export/listing.js';
import { containsPattern, isoDate } from '../../platform/filters.js';
import type { StaffActor } from '../../platform/context.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffNamed } from '../staff/names.js';
import { clientInReach } from '../staff/reach.js';
import { billsPolicy } from './invoice-view.js';
import { clientTransactions, toTransactions, transactionColumns, transactionQuery, type Transaction } from './transaction-view.js';

export type TransactionListQuery = NonNullable<operations['listTransactions']['parameters']['query']>;
export type StaffTransactionListQuery = NonNullable<operations['listStaffTransactions']['parameters']['query']>;

/**
 * The client's payments matching the list's filters (dates on the day the money was paid,
 * `dateReceived`), unordered and without columns: a list adds its own, or more filters.
 */
export function matchingTransactions(scope: TenantScope, clientId: string, query: TransactionListQuery) {
  return filterTransactions(clientTransactions(scope, clientId), query);
}

/** Payments narrowed by the list's filters; for staff, by the staff member credited with the policy paid for too. */
function filterTransactions(payments: ReturnType<typeof transactionQuery>, query: TransactionListQuery & Partial<StaffTransactionListQuery>) {
  const from = query.from === undefined ? undefined : isoDate(query.from, 'query.from');
  const to = query.to === undefined ? undefined : isoDate(query.to, 'query.to');
  const day = query.date === undefined ? undefined : isoDate(query.date, 'query.date');
  if (from !== undefined && to !== undefined && to < from) throw badRequest('query.to must not be before query.from');
  const billed = (condition: RawBuilder<boolean>) => billsPolicy('transactions.invoice_id', 'transactions.tenant_id', condition);
  return payments
    .$if(query.clientId !== undefined, (qb) => qb.where('transactions.client_id', '=', query.clientId!))
    .$if(query.invoiceId !== undefined, (qb) => qb.where('transactions.invoice_id', '=', query.invoiceId!))
    .$if(query.invoiceNo !== undefined, (qb) => qb.where(sql<boolean>`upper(invoice.invoice_no) = upper(${query.invoiceNo!})`))
    .$if(query.policyId !== undefined, (qb) => qb.where(billed(sql<boolean>`p.id = ${query.policyId!}`)))
    .$if(query.policyNo !== undefined, (qb) => qb.where(billed(sql<boolean>`p.policy_no ilike ${containsPattern(query.policyNo!)}`)))
    .$if(query.status !== undefined, (qb) => qb.where('transactions.status', '=', query.status!))
    .$if(from !== undefined, (qb) => qb.where('transactions.date_received', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('transactions.date_received', '<=', to!))
    .$if(day !== undefined, (qb) => qb.where('transactions.date_received', '=', day!))
    .$if(query.staffId !== undefined, (qb) => qb.where(billed(sql<boolean>`p.originating_staff_id = ${query.staffId!}`)))
    .$if(query.staffName !== undefined, (qb) => qb.where(billed(staffNamed('p.originating_staff_id', 'p.tenant_id', query.staffName!))));
}

/** Matching payments, newest first: a page, every row, or an .xlsx export (named for `now`'s day). */
export function listTransactions(scope: TenantScope, matching: ReturnType<typeof matchingTransactions>, query: TransactionListQuery, now: Date) {
  return listOrExport({
    query, matching, columns: matching.select(transactionColumns), table: 'transactions', noun: 'transactions',
    toItems: (rows) => toTransactions(scope, rows, now),
    sheet: { name: 'Transactions', filename: `transactions-${now.toISOString().slice(0, 10)}.xlsx`, columns: [
      { header: 'Transaction No', value: (t: Transaction) => t.transactionNo },
      { header: 'Invoice No', value: (t) => t.invoice.invoiceNo },
      { header: 'Payment method', value: (t) => t.paymentMethod },
      { header: 'Status', value: (t) => t.status },
      { header: 'Currency', value: (t) => t.currency },
      { header: 'Amount', value: (t) => t.amount },
      { header: 'Exchange rate', value: (t) => t.exchangeRate },
      { header: 'Converted amount', value: (t) => t.convertedAmount },
      { header: 'Date received', value: (t) => t.dateReceived },
      { header: 'Type', value: (t) => t.transactionType },
      { header: 'Payee', width: 24, value: (t) => t.payee },
      { header: 'Institution', width: 24, value: (t) => t.paymentInstitution },
      { header: 'Cheque No', value: (t) => t.cheque?.chequeNo ?? null },
      { header: 'Created at', width: 24, value: (t) => t.createdAt },
    ] },
  });
}

/** The client's payments with the list's filters, as the list answers them. */
export const listClientTransactions = (scope: TenantScope, clientId: string, query: TransactionListQuery, now: Date) =>
  listTransactions(scope, matchingTransactions(scope, clientId, query), query, now);

/** The payments of the clients within a staff member's reach, with the staff list's filters, as the list answers them. */
export function listStaffTransactions(scope: TenantScope, actor: StaffActor, query: StaffTransactionListQuery, now: Date) {
  return listTransactions(scope, filterTransactions(transactionQuery(scope).where(clientInReach('transactions.client_id', actor)), query), query, now);
}
