import { sql, type RawBuilder } from 'kysely';
import type { operations } from '../../../generated/api.js';
import { badRequest } from '../../platform/errors.js';
import { filtersIn, givenFilters, listOrExport, shapeOfFilters, type ShapedList } from '../../platform/export/listing.js';
import { containsPattern, isoDate } from '../../platform/filters.js';
import type { StaffActor } from '../../platform/context.js';
import { TenantScope } from '../../platform/tenancy.js';
import { staffNamed } from '../staff/names.js';
import { clientInReach } from '../staff/reach.js';
import { billsPolicy } from './invoice-view.js';
import { clientTransactions, toTransactions, transactionColumns, transactionQuery, type Transaction, type TransactionRow } from './transaction-view.js';

export type TransactionListQuery = NonNullable<operations['listTransactions']['parameters']['query']>;
export type StaffTransactionListQuery = NonNullable<operations['listStaffTransactions']['parameters']['query']>;

/**
 * A payment list's filters as values a query takes: the dates checked (a bad one is a 400), the
 * policy number as its ILIKE pattern. The keys present are the query's shape: `filterTransactionsBy`
 * adds one condition per key.
 */
interface TransactionFilterValues {
  clientId?: string; invoiceId?: string; invoiceNo?: string; policyId?: string; policyNoPattern?: string; status?: TransactionListQuery['status'];
  from?: string; to?: string; day?: string; staffId?: string; staffName?: string;
}

function filterValues(query: TransactionListQuery & Partial<StaffTransactionListQuery>): TransactionFilterValues {
  const from = query.from === undefined ? undefined : isoDate(query.from, 'query.from');
  const to = query.to === undefined ? undefined : isoDate(query.to, 'query.to');
  const day = query.date === undefined ? undefined : isoDate(query.date, 'query.date');
  if (from !== undefined && to !== undefined && to < from) throw badRequest('query.to must not be before query.from');
  const values: TransactionFilterValues = {
    clientId: query.clientId, invoiceId: query.invoiceId, invoiceNo: query.invoiceNo, policyId: query.policyId,
    policyNoPattern: query.policyNo === undefined ? undefined : containsPattern(query.policyNo), status: query.status,
    from, to, day, staffId: query.staffId, staffName: query.staffName,
  };
  return givenFilters(values);
}

/**
 * Narrows payments by the filters `uses` names, with their `values` (used as values only, so a
 * compiled query can give stand-ins); for staff, by the staff member credited with the policy paid for too.
 */
function filterTransactionsBy<Q extends ReturnType<typeof transactionQuery>>(payments: Q, uses: ReadonlySet<string>, values: TransactionFilterValues): Q {
  const billed = (condition: RawBuilder<boolean>) => billsPolicy('transactions.invoice_id', 'transactions.tenant_id', condition);
  return payments
    .$if(uses.has('clientId'), (qb) => qb.where('transactions.client_id', '=', values.clientId!))
    .$if(uses.has('invoiceId'), (qb) => qb.where('transactions.invoice_id', '=', values.invoiceId!))
    .$if(uses.has('invoiceNo'), (qb) => qb.where(sql<boolean>`upper(invoice.invoice_no) = upper(${values.invoiceNo!})`))
    .$if(uses.has('policyId'), (qb) => qb.where(billed(sql<boolean>`p.id = ${values.policyId!}`)))
    .$if(uses.has('policyNoPattern'), (qb) => qb.where(billed(sql<boolean>`p.policy_no ilike ${values.policyNoPattern!}`)))
    .$if(uses.has('status'), (qb) => qb.where('transactions.status', '=', values.status!))
    .$if(uses.has('from'), (qb) => qb.where('transactions.date_received', '>=', values.from!))
    .$if(uses.has('to'), (qb) => qb.where('transactions.date_received', '<=', values.to!))
    .$if(uses.has('day'), (qb) => qb.where('transactions.date_received', '=', values.day!))
    .$if(uses.has('staffId'), (qb) => qb.where(billed(sql<boolean>`p.originating_staff_id = ${values.staffId!}`)))
    .$if(uses.has('staffName'), (qb) => qb.where(billed(staffNamed('p.originating_staff_id', 'p.tenant_id', values.staffName!)))) as Q;
}

/** Payments narrowed by every filter the list's query gives (dates checked first: a bad one is a 400). */
function filterTransactions(payments: ReturnType<typeof transactionQuery>, query: TransactionListQuery & Partial<StaffTransactionListQuery>) {
  const values = filterValues(query);
  return filterTransactionsBy(payments, new Set(Object.keys(values)), values);
}

/** What a client's payment list is built from: its tenant, its client, and the filters' values. */
type ClientTransactionValues = TransactionFilterValues & { tenantId: string; ownerId: string };

/**
 * The client's payments matching the list's filters (dates on the day the money was paid,
 * `dateReceived`), as a list whose pages are built once per shape (the filters given); another
 * client's id matches nothing.
 */
function clientTransactionList(scope: TenantScope, clientId: string, query: TransactionListQuery): ShapedList<ClientTransactionValues, TransactionRow> {
  const { clientId: _staffOnly, staffId: _s, staffName: _n, ...values } = filterValues(query);
  const matching = (db: TenantScope['db'], v: ClientTransactionValues, shape: string) =>
    filterTransactionsBy(clientTransactions(new TenantScope(db, v.tenantId), v.ownerId), filtersIn(shape), v);
  return {
    name: 'client transactions', shape: shapeOfFilters(values), db: scope.db,
    values: { ...values, tenantId: scope.tenantId, ownerId: clientId },
    matching, columns: (db, v, shape) => matching(db, v, shape).select(transactionColumns),
  };
}

/** Matching payments, newest first: a page, every row, or an .xlsx export (named for `now`'s day). */
export function listTransactions(scope: TenantScope, source: ReturnType<typeof transactionQuery> | { shaped: ShapedList<any, TransactionRow> },
  query: TransactionListQuery, now: Date) {
  return listOrExport({
    ...('shaped' in source ? { shaped: source.shaped } : { matching: source, columns: source.select(transactionColumns) }),
    query, table: 'transactions', noun: 'transactions',
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
  listTransactions(scope, { shaped: clientTransactionList(scope, clientId, query) }, query, now);

/** The payments of the clients within a staff member's reach, with the staff list's filters, as the list answers them. */
export function listStaffTransactions(scope: TenantScope, actor: StaffActor, query: StaffTransactionListQuery, now: Date) {
  return listTransactions(scope, filterTransactions(transactionQuery(scope).where(clientInReach('transactions.client_id', actor)), query), query, now);
}
