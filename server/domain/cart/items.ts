import type { Selectable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { CartItemsTable } from '../../platform/db/schema.js';
import { ApiError, badRequest, notFound } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { checkAgainstSchema } from '../../platform/validation.js';
import {
  checkClientFields, checkCurrency, checkRenewal, CLIENT_SELLS, preparePolicy, sellableProduct, type PolicyCreateRequest, type PreparedPolicy,
  type Seller,
} from '../policies/issue.js';
import { checkTerm } from '../policies/rules.js';
import { todayOf } from '../../platform/clock.js';

export type CartItem = components['schemas']['CartItem'];
export type CartItemInput = components['schemas']['CartItemInput'];
type CartItemCheckout = components['schemas']['CartItemCheckout'];

/** The most items a cart holds: a checkout turns them all into policies in one transaction. */
export const MAX_CART_ITEMS = 50;

/** The columns the mapper reads: queries select exactly these (never tenant_id or client_id). */
export const cartItemColumns = ['id', 'policy_type', 'body', 'created_at', 'updated_at'] as const;
export type CartItemRow = Pick<Selectable<CartItemsTable>, (typeof cartItemColumns)[number]>;

/** Where checkout's messages about an item point: `cart[<id>].assets[0].location is required`. */
export const itemRoot = (id: string) => `cart[${id}]`;

/** A cart_items row, and whether it would pass checkout now -> CartItem. */
export function toCartItem(row: CartItemRow, checkout: CartItemCheckout): CartItem {
  return {
    ...(row.body as unknown as CartItemInput),
    id: row.id,
    checkout,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  } as CartItem;
}

/** A cart_items row as the API shows it, with whether it would pass checkout now. */
export async function withCheckout(ctx: HandlerContext, scope: TenantScope, clientId: string, row: CartItemRow): Promise<CartItem> {
  return toCartItem(row, await checkoutStatus(ctx, scope, clientId, row));
}

/** One of a client's items as the API shows it; anyone else's is a 404. */
export async function loadCartItem(ctx: HandlerContext, clientId: string, id: string): Promise<CartItem> {
  return withCheckout(ctx, ctx.scope, clientId, await ownCartItem(ctx.scope, id, clientId));
}

/** One of the signed-in client's items, or 404 (another client's or tenant's id included); `lock` for changes. */
export async function ownCartItem(scope: TenantScope, id: string, clientId: string, { lock = false } = {}): Promise<CartItemRow> {
  const row = await scope.selectFrom('cart_items').select(cartItemColumns)
    .where('id', '=', id).where('client_id', '=', clientId)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound('Cart item');
  return row;
}

/**
 * The checks an item passes when it is added or changed: every field but the assets, as a new
 * policy's (the client-only fields, the dates, the product, the currency, the policy a renewal
 * names), and an invoice on checkout. The assets and the price wait for checkout.
 */
export async function checkItemFields(ctx: HandlerContext, scope: TenantScope, clientId: string, item: CartItemInput, root = 'body') {
  checkClientFields(item, clientId, root);
  if (item.generateInvoice === false) throw badRequest(`${root}.generateInvoice cannot be false in the cart: checkout invoices every item`);
  checkTerm(item.startDate, item.endDate, todayOf(ctx.clock.now()), root);
  await sellableProduct(ctx, item.productId, item.policyType, root, scope.db);
  await checkCurrency(scope, item.currency, item.exchangeRate ?? 1, root);
  await checkRenewal(scope, item, clientId, root);
}

/**
 * An item as checkout takes it: a valid create body for its policy type (the contract's
 * `PolicyCreateRequest`, checked as `POST /client/policies` checks its body), then checked and
 * priced by the policy engine. Messages name the item. Writes nothing.
 */
export async function prepareItem(ctx: HandlerContext, scope: TenantScope, clientId: string, row: CartItemRow, seller: Seller = CLIENT_SELLS): Promise<PreparedPolicy> {
  const root = itemRoot(row.id);
  // A copy: the check fills in the contract's defaults, as request validation does.
  const body = structuredClone(row.body);
  checkAgainstSchema('PolicyCreateRequest', body, root);
  return preparePolicy(ctx, scope, clientId, body as unknown as PolicyCreateRequest, root, seller);
}

/** Whether an item would pass checkout now, on its own, and at what price; what it would be refused for if not. */
export async function checkoutStatus(ctx: HandlerContext, scope: TenantScope, clientId: string, row: CartItemRow): Promise<CartItemCheckout> {
  try {
    const prepared = await prepareItem(ctx, scope, clientId, row);
    await checkRenewal(scope, prepared.body, clientId, prepared.root);
    return { ready: true, problem: null, premium: prepared.rating.premium.toNumber() };
  } catch (error) {
    if (error instanceof ApiError && error.statusCode < 500) return { ready: false, problem: error.message, premium: null };
    throw error;
  }
}
