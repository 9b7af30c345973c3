import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { checkoutStatus, ownCartItem, toCartItem } from '../../server/domain/cart/items.js';

/** One of the signed-in client's cart items, with whether it would pass checkout now; anyone else's is a 404. */
export const getCartItem: Handler<'getCartItem'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const row = await ownCartItem(ctx.scope, req.params.id, owner);
  return { data: toCartItem(row, await checkoutStatus(ctx, ctx.scope, owner, row)) };
};
