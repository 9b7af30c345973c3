import type { Kysely } from 'kysely';
import type { HandlerContext } from '../../platform/context.js';
import type { Database } from '../../platform/db/schema.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { companyProducts } from './visible.js';

/** Who sells: a client buying in a client app, or a staff member selling for the company. */
export type Seller = 'client' | 'staff';

/** What selling a product reads of it, and what a quote shows of it (PolicyProduct). */
const SALE_COLUMNS = [
  'products.id', 'products.category', 'products.sub_category', 'products.premium_rates', 'products.status', 'products.distribution',
  'products.name', 'products.code', 'insurer.id as insurer_id', 'insurer.name as insurer_name', 'insurer.type as insurer_type',
  'insurer.kind as insurer_kind', 'insurer.short_name as insurer_short_name', 'insurer.primary_color as insurer_primary_color',
] as const;

/**
 * The product a policy may be sold on, for `by`: one of the tenant's products (its own or assigned
 * to it), ONLINE for a client (an OFFLINE product does not exist for a client: 400 naming the
 * field, exactly as an unknown id), either channel for staff; and ACTIVE (a DEACTIVATED product
 * answers 409 `PRODUCT_DEACTIVATED`). `field` names the id in messages; reads through `db` as
 * given (a transaction's, inside one).
 */
export async function productForSale(
  ctx: Pick<HandlerContext, 'db' | 'tenant'>,
  productId: string,
  { by, db = ctx.db, field = 'body.productId', currency }: {
    by: Seller; db?: Kysely<Database>; field?: string;
    /** A currency code read in the same query (`currency_status`, `currency_is_default`; null when unknown), for a sale's check. */
    currency?: string;
  },
) {
  const product = await companyProducts(ctx, db).select(SALE_COLUMNS)
    .select((eb) => [
      eb.selectFrom('currencies').select('status').where('code', '=', currency ?? null).as('currency_status'),
      eb.selectFrom('currencies').select('is_default').where('code', '=', currency ?? null).as('currency_is_default'),
    ])
    .where('products.id', '=', productId).executeTakeFirst();
  if (!product || (by === 'client' && product.distribution !== 'ONLINE')) {
    throw badRequest(by === 'client'
      ? `${field}: no ACTIVE ONLINE product with this id is available`
      : `${field}: no product with this id is available to your company`);
  }
  if (product.status !== 'ACTIVE') {
    throw conflict(`${field}: product ${product.code} is DEACTIVATED and no longer sold; choose another product`, 'PRODUCT_DEACTIVATED');
  }
  return product;
}

export type ProductForSale = Awaited<ReturnType<typeof productForSale>>;
