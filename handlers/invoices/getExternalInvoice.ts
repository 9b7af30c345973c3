import { notFound } from '../../server/platform/errors.js';
import { invoiceFigures, paymentSums } from '../../server/domain/money/figures.js';
import { idOrNumber } from '../../server/platform/filters.js';
import type { Handler } from '../types.js';
import { billedPolicies } from '../../server/domain/money/invoice-view.js';

/** An invoice of the Api-Key's tenant, by number or id, showing a payer only what paying needs. */
export const getExternalInvoice: Handler<'getExternalInvoice'> = async (ctx, req) => {
  const wanted = req.params.invoiceNoOrId;
  const row = await ctx.scope.selectFrom('invoices')
    .select(['id', 'invoice_no', 'currency', 'amount', 'exchange_rate', 'invoice_date', 'description'])
    .where(idOrNumber(wanted, 'id', 'invoice_no'))
    .executeTakeFirst();
  if (!row) throw notFound('Invoice');
  const figures = invoiceFigures(row.amount, row.exchange_rate, (await paymentSums(ctx.scope, [row.id])).get(row.id)!);
  return {
    data: {
      id: row.id,
      invoiceNo: row.invoice_no,
      currency: row.currency,
      amount: Number(row.amount),
      invoiceDate: row.invoice_date,
      description: row.description,
      policyNos: (await billedPolicies(ctx.scope, [row.id])).get(row.id)!.map((p) => p.policyNo),
      insurer: ctx.tenant.name,
      amountPaid: figures.amountPaid,
      amountUnpaid: figures.amountUnpaid,
      status: figures.status,
      isClosed: figures.isClosed,
    },
  };
};
