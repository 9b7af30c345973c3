import { clientId } from '../../server/platform/actor.js';
import { payInvoice } from '../../server/domain/money/pay-invoice.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The signed-in client pays one of its invoices; an Idempotency-Key makes a retry safe. */
export const createTransaction: Handler<'createTransaction'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const key = req.headers['idempotency-key'];
  return { data: await payInvoice(ctx, owner, req.body, { by: 'client', id: owner },
    { key: typeof key === 'string' ? key : undefined, operation: 'createTransaction' }) };
};
