import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';

/** Empties the signed-in client's cart (an empty one stays empty). */
export const clearCart: Handler<'clearCart'> = async (ctx) => {
  const removed = await ctx.scope.deleteFrom('cart_items').where('client_id', '=', clientId(ctx)).returning('id').execute();
  return { message: `Cart cleared (${removed.length} item${removed.length === 1 ? '' : 's'} removed)` };
};
