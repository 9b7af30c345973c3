import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';

/** Removes one of the signed-in client's cart items; anyone else's is a 404 and stays. */
export const deleteCartItem: Handler<'deleteCartItem'> = async (ctx, req) => {
  const deleted = await ctx.scope.deleteFrom('cart_items')
    .where('id', '=', req.params.id)
    .where('client_id', '=', clientId(ctx))
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Cart item');
  return { message: 'Cart item removed' };
};
