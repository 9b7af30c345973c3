import { externalInvoice } from '../../server/domain/money/invoice-view.js';
import type { Handler } from '../types.js';

/** An invoice of the Api-Key's tenant, by number or id, showing a payer only what paying needs. */
export const getExternalInvoice: Handler<'getExternalInvoice'> = async (ctx, req) =>
  ({ data: await externalInvoice(ctx.scope, ctx.tenant.name, req.params.invoiceNoOrId) });
