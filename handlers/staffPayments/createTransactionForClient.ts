import { staffActor } from '../../server/platform/actor.js';
import { payInvoiceForClient } from '../../server/domain/money/pay-invoice.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Staff take a payment of a client's invoice; an Idempotency-Key makes a retry safe. */
export const createTransactionForClient: Handler<'createTransactionForClient'> = async (ctx, req) => {
  const key = req.headers['idempotency-key'];
  return { data: await payInvoiceForClient(ctx, staffActor(ctx), req.body,
    { key: typeof key === 'string' ? key : undefined, operation: 'createTransactionForClient' }) };
};
