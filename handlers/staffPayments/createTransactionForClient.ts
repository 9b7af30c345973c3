import { staffActor } from '../../server/platform/actor.js';
import { payInvoiceForClient } from '../../server/domain/money/pay-invoice.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Staff take a payment of a client's invoice (an Idempotency-Key, applied by the routes, makes a retry safe). */
export const createTransactionForClient: Handler<'createTransactionForClient'> = async (ctx, req) =>
  ({ data: await payInvoiceForClient(ctx, staffActor(ctx), req.body) });
