import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { removeCartItem } from '../../server/domain/cart/changes.js';

/** Removes one of the signed-in client's cart items; anyone else's is a 404 and stays. */
export const deleteCartItem: Handler<'deleteCartItem'> = async (ctx, req) => {
  await removeCartItem(ctx.scope, clientId(ctx), req.params.id);
  return { message: 'Cart item removed' };
};
