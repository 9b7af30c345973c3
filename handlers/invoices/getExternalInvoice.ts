import { externalInvoice } from '../../server/domain/money/invoice-view.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** An invoice of the Api-Key's tenant, by id, or by number with its amount, showing a payer only what paying needs. */
export const getExternalInvoice: Handler<'getExternalInvoice'> = async (ctx, req) => ({
  data: await externalInvoice(ctx.scope, { db: ctx.db, now: ctx.clock.now() }, ctx.tenant.name,
    { invoiceNoOrId: req.params.invoiceNoOrId, amount: req.query?.amount, ip: req.ip }),
});
