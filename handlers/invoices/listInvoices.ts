import { listOrExport } from '../../server/platform/export/listing.js';
import { clientId } from '../../server/platform/actor.js';
import { idOrNumber } from '../../server/platform/filters.js';
import type { Handler } from '../types.js';
import { billsPolicy, invoiceColumns, toInvoices, type Invoice } from '../../server/domain/money/invoice-view.js';

/** The signed-in client's invoices, newest first, with figures derived from their payments. */
export const listInvoices: Handler<'listInvoices'> = async (ctx, req) => {
  const query = req.query;
  const owner = clientId(ctx);
  const policy = query.policy;
  const matching = ctx.scope.selectFrom('invoices').where('invoices.client_id', '=', owner)
    .$if(policy !== undefined, (qb) => qb.where(billsPolicy('invoices.id', 'invoices.tenant_id', idOrNumber(policy!, 'p.id', 'p.policy_no'))));
  return listOrExport({
    query, matching, columns: matching.select(invoiceColumns), table: 'invoices', noun: 'invoices',
    toItems: (rows) => toInvoices(ctx.scope, rows),
    sheet: { name: 'Invoices', filename: `invoices-${ctx.clock.now().toISOString().slice(0, 10)}.xlsx`, columns: [
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
};
