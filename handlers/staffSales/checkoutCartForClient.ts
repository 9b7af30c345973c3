import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { checkOutForClient } from '../../server/domain/cart/staff-checkout.js';

/** Buys the cart of a client within the caller's reach: its policies and one invoice, sold by the caller. */
export const checkoutCartForClient: Handler<'checkoutCartForClient'> = async (ctx, req) =>
  ({ data: await checkOutForClient(ctx, staffActor(ctx), req.params.id, req.body?.itemIds) });
