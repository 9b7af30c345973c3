import { checkAgainstSchema } from '../../server/platform/validation.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { cartItemColumns, checkItemFields, checkoutStatus, ownCartItem, toCartItem, type CartItemInput } from '../../server/domain/cart/items.js';

/**
 * Changes some fields of one of the signed-in client's cart items: each field sent replaces the
 * stored one, `null` removes it. The item as changed must still be a valid cart item, checked as
 * when it was added; the item's row is locked meanwhile so two changes cannot interleave.
 */
export const updateCartItem: Handler<'updateCartItem'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const now = ctx.clock.now();
  const row = await ctx.scope.transaction(async (scope) => {
    const current = await ownCartItem(scope, req.params.id, owner, { lock: true });
    const merged: Record<string, unknown> = { ...current.body };
    for (const [field, value] of Object.entries(req.body)) {
      if (value === null) delete merged[field];
      else merged[field] = value;
    }
    checkAgainstSchema('CartItemInput', merged);
    const item = merged as unknown as CartItemInput;
    await checkItemFields(ctx, scope, owner, item);
    return scope.updateTable('cart_items')
      .set({ body: JSON.stringify(item), policy_type: item.policyType, updated_at: now })
      .where('id', '=', current.id)
      .where('client_id', '=', owner)
      .returning(cartItemColumns)
      .executeTakeFirstOrThrow();
  });
  return { data: toCartItem(row, await checkoutStatus(ctx, ctx.scope, owner, row)) };
};
