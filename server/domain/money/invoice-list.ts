import type { operations } from '../../../generated/api.js';
import { listOrExport } from '../../platform/export/listing.js';
import { idOrNumber } from '../../platform/filters.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { billsPolicy, invoiceColumns, toInvoices, type Invoice } from './invoice-view.js';

export type InvoiceListQuery = NonNullable<operations['listInvoices']['parameters']['query']>;

/** The client's invoices matching the list's filter (the policy billed, by id or number), unordered. */
export function matchingInvoices(scope: TenantScope, clientId: string, query: InvoiceListQuery) {
  const policy = query.policy;
  return scope.selectFrom('invoices').where('invoices.client_id', '=', clientId)
    .$if(policy !== undefined, (qb) => qb.where(billsPolicy('invoices.id', 'invoices.tenant_id', idOrNumber(policy!, 'p.id', 'p.policy_no'))));
}

/** Matching invoices, newest first, with figures derived from their payments: a page, every row, or an .xlsx export. */
export function listInvoices(scope: TenantScope, matching: ReturnType<typeof matchingInvoices>, query: InvoiceListQuery, now: Date) {
  return listOrExport({
    query, matching, columns: matching.select(invoiceColumns), table: 'invoices', noun: 'invoices',
    toItems: (rows) => toInvoices(scope, rows),
    sheet: { name: 'Invoices', filename: `invoices-${now.toISOString().slice(0, 10)}.xlsx`, columns: [
      { header: 'Invoice No', value: (i: Invoice) => i.invoiceNo },
      { header: 'Invoice date', value: (i) => i.invoiceDate },
      { header: 'Policies', width: 28, value: (i) => i.policies.map((p) => p.policyNo).join(', ') },
      { header: 'Currency', value: (i) => i.currency },
      { header: 'Amount', value: (i) => i.amount },
      { header: 'Paid', value: (i) => i.amountPaid },
      { header: 'Unpaid', value: (i) => i.amountUnpaid },
      { header: 'Approved', value: (i) => i.amountApproved },
      { header: 'Unapproved', value: (i) => i.amountUnapproved },
      { header: 'Status', value: (i) => i.status },
      { header: 'Closed', value: (i) => i.isClosed },
    ] },
  });
}

/** The client's invoices with the list's filter, as the list answers them. */
export const listClientInvoices = (scope: TenantScope, clientId: string, query: InvoiceListQuery, now: Date) =>
  listInvoices(scope, matchingInvoices(scope, clientId, query), query, now);
