import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { emptyCart } from '../../server/domain/cart/changes.js';

/** Empties the signed-in client's cart (an empty one stays empty). */
export const clearCart: Handler<'clearCart'> = async (ctx) => {
  const removed = await emptyCart(ctx.scope, clientId(ctx));
  return { message: `Cart cleared (${removed} item${removed === 1 ? '' : 's'} removed)` };
};
