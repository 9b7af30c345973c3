import { clientId } from '../../server/platform/actor.js';
import { payInvoice } from '../../server/domain/money/pay-invoice.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The signed-in client pays one of its invoices (an Idempotency-Key, applied by the routes, makes a retry safe). */
export const createTransaction: Handler<'createTransaction'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await payInvoice(ctx, owner, req.body, { by: 'client', id: owner }) };
};
