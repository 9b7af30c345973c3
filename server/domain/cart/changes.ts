import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { conflict, notFound } from '../../platform/errors.js';
import { checkAgainstSchema } from '../../platform/validation.js';
import {
  cartItemColumns, checkItemFields, MAX_CART_ITEMS, ownCartItem, withCheckout, type CartItem, type CartItemInput,
} from './items.js';
import type { TenantScope } from '../../platform/tenancy.js';

export type CartItemUpdate = components['schemas']['CartItemUpdate'];

/**
 * Puts a policy create body of any type in a client's cart: every field but the assets is checked
 * now, the assets at checkout. At most MAX_CART_ITEMS items, counted under a lock on the client's
 * row so concurrent adds cannot overfill the cart.
 */
export async function addToCart(ctx: HandlerContext, clientId: string, body: CartItemInput): Promise<CartItem> {
  const now = ctx.clock.now();
  await checkItemFields(ctx, ctx.scope, clientId, body);
  const row = await ctx.scope.transaction(async (scope) => {
    await scope.selectFrom('clients').select('id').where('id', '=', clientId).forNoKeyUpdate().executeTakeFirst();
    const { count } = await scope.selectFrom('cart_items').select((eb) => eb.fn.countAll<string>().as('count'))
      .where('client_id', '=', clientId).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_CART_ITEMS) {
      throw conflict(`The cart is full (${MAX_CART_ITEMS} items): check out or remove items first`, 'CART_FULL');
    }
    return scope.insertInto('cart_items', {
      client_id: clientId,
      policy_type: body.policyType,
      body: JSON.stringify(body),
      created_at: now,
      updated_at: now,
    }).returning(cartItemColumns).executeTakeFirstOrThrow();
  });
  return withCheckout(ctx, ctx.scope, clientId, row);
}

/**
 * Changes some fields of one of a client's cart items: each field sent replaces the stored one,
 * `null` removes it. The item as changed must still be a valid cart item, checked as when it was
 * added; the item's row is locked meanwhile so two changes cannot interleave.
 */
export async function changeCartItem(ctx: HandlerContext, clientId: string, itemId: string, fields: CartItemUpdate): Promise<CartItem> {
  const now = ctx.clock.now();
  const row = await ctx.scope.transaction(async (scope) => {
    const current = await ownCartItem(scope, itemId, clientId, { lock: true });
    const merged: Record<string, unknown> = { ...current.body };
    for (const [field, value] of Object.entries(fields)) {
      if (value === null) delete merged[field];
      else merged[field] = value;
    }
    checkAgainstSchema('CartItemInput', merged);
    const item = merged as unknown as CartItemInput;
    await checkItemFields(ctx, scope, clientId, item);
    return scope.updateTable('cart_items')
      .set({ body: JSON.stringify(item), policy_type: item.policyType, updated_at: now })
      .where('id', '=', current.id)
      .where('client_id', '=', clientId)
      .returning(cartItemColumns)
      .executeTakeFirstOrThrow();
  });
  return withCheckout(ctx, ctx.scope, clientId, row);
}

/** Removes one of a client's cart items; anyone else's is a 404 and stays. */
export async function removeCartItem(scope: TenantScope, clientId: string, itemId: string): Promise<void> {
  const deleted = await scope.deleteFrom('cart_items')
    .where('id', '=', itemId)
    .where('client_id', '=', clientId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Cart item');
}

/** Empties a client's cart, answering how many items it held (an empty one stays empty). */
export async function emptyCart(scope: TenantScope, clientId: string): Promise<number> {
  const removed = await scope.deleteFrom('cart_items').where('client_id', '=', clientId).returning('id').execute();
  return removed.length;
}
