import { Decimal } from 'decimal.js';
import { paginate } from '../../server/platform/pagination.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { cartItemColumns, checkoutStatus, toCartItem } from '../../server/domain/cart/items.js';

/**
 * One page of the signed-in client's cart, newest first, each item with whether it would pass
 * checkout now, and the whole cart's totals. A cart is small (at most MAX_CART_ITEMS), so every
 * item is read and checked once and the page is cut from them.
 */
export const listCartItems: Handler<'listCartItems'> = async (ctx, req) => {
  const owner = clientId(ctx);
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const rows = await ctx.scope.selectFrom('cart_items').select(cartItemColumns)
    .where('client_id', '=', owner)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const items = [];
  for (const row of rows) items.push(toCartItem(row, await checkoutStatus(ctx, ctx.scope, owner, row)));

  const byCurrency = new Map<string, { amount: Decimal; items: number }>();
  for (const item of items) {
    if (!item.checkout.ready || item.checkout.premium === null) continue;
    const total = byCurrency.get(item.currency) ?? { amount: new Decimal(0), items: 0 };
    byCurrency.set(item.currency, { amount: total.amount.plus(item.checkout.premium), items: total.items + 1 });
  }
  const totals = {
    items: items.length,
    readyItems: items.filter((item) => item.checkout.ready).length,
    premiums: [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, total]) => ({ currency, amount: total.amount.toNumber(), items: total.items })),
  };
  const { offset, paginator } = paginate({ page, limit, itemsCount: items.length });
  return { data: items.slice(offset, offset + limit), paginator, totals };
};
