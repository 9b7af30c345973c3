import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { paginate, type Paginator } from '../../platform/pagination.js';
import { cartItemColumns, withCheckout, type CartItem } from './items.js';

type CartTotals = components['schemas']['CartTotals'];

/**
 * One page of a client's cart, newest first, each item with whether it would pass checkout now,
 * and the whole cart's totals. A cart is small (at most MAX_CART_ITEMS), so every item is read and
 * checked once and the page is cut from them.
 */
export async function listCart(ctx: HandlerContext, clientId: string, { page, limit }: { page: number; limit: number }):
  Promise<{ data: CartItem[]; paginator: Paginator; totals: CartTotals }> {
  const rows = await ctx.scope.selectFrom('cart_items').select(cartItemColumns)
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const items = [];
  for (const row of rows) items.push(await withCheckout(ctx, ctx.scope, clientId, row));
  const { offset, paginator } = paginate({ page, limit, itemsCount: items.length });
  return { data: items.slice(offset, offset + limit), paginator, totals: totalsOf(items) };
}

/** How many items, how many ready, and the ready items' premiums summed per currency. */
function totalsOf(items: CartItem[]): CartTotals {
  const byCurrency = new Map<string, { amount: Decimal; items: number }>();
  for (const item of items) {
    if (!item.checkout.ready || item.checkout.premium === null) continue;
    const total = byCurrency.get(item.currency) ?? { amount: new Decimal(0), items: 0 };
    byCurrency.set(item.currency, { amount: total.amount.plus(item.checkout.premium), items: total.items + 1 });
  }
  return {
    items: items.length,
    readyItems: items.filter((item) => item.checkout.ready).length,
    premiums: [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, total]) => ({ currency, amount: total.amount.toNumber(), items: total.items })),
  };
}
