import { clientId } from '../../server/platform/actor.js';
import { loadClientInvoice } from '../../server/domain/money/invoice-list.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One of the signed-in client's invoices, as its list answers it, with figures derived from its payments. */
export const getInvoice: Handler<'getInvoice'> = async (ctx, req) =>
  ({ data: await loadClientInvoice(ctx.scope, clientId(ctx), req.params.id) });
