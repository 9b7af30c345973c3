import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { buyCart } from '../../server/domain/cart/checkout.js';

/** Buys the signed-in client's cart (or the items named in `itemIds`): its policies on one invoice, all or nothing. */
export const checkoutCart: Handler<'checkoutCart'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await buyCart(ctx, owner, req.body?.itemIds, { by: 'client', id: owner }) };
};
