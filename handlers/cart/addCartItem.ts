import { conflict } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { cartItemColumns, checkItemFields, checkoutStatus, MAX_CART_ITEMS, toCartItem } from '../../server/domain/cart/items.js';

/**
 * Puts a policy create body of any type in the signed-in client's cart: every field but the
 * assets is checked now, the assets at checkout. At most MAX_CART_ITEMS items, counted under a
 * lock on the client's row so concurrent adds cannot overfill the cart.
 */
export const addCartItem: Handler<'addCartItem'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  await checkItemFields(ctx, ctx.scope, owner, body);
  const row = await ctx.scope.transaction(async (scope) => {
    await scope.selectFrom('clients').select('id').where('id', '=', owner).forNoKeyUpdate().executeTakeFirst();
    const { count } = await scope.selectFrom('cart_items').select((eb) => eb.fn.countAll<string>().as('count'))
      .where('client_id', '=', owner).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_CART_ITEMS) {
      throw conflict(`The cart is full (${MAX_CART_ITEMS} items): check out or remove items first`, 'CART_FULL');
    }
    return scope.insertInto('cart_items', {
      client_id: owner,
      policy_type: body.policyType,
      body: JSON.stringify(body),
      created_at: now,
      updated_at: now,
    }).returning(cartItemColumns).executeTakeFirstOrThrow();
  });
  return { data: toCartItem(row, await checkoutStatus(ctx, ctx.scope, owner, row)) };
};
