import type { operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { containsPattern } from '../../platform/filters.js';
import { pageOf } from '../../platform/pagination.js';
import { nothing, productColumns, toProduct, visibleProducts, type Product } from './visible.js';

type ProductListQuery = NonNullable<operations['listProducts']['parameters']['query']>;
/** The list's filters (a staff list passes its own query beside them). */
export type ProductFilters = Omit<ProductListQuery, 'page' | 'limit'>;

/** Products narrowed by the list's filters. */
export function filterProducts(products: ReturnType<typeof visibleProducts>, filters: ProductFilters) {
  const { category, name, subCategory, insurer, assigned, distribution } = filters;
  return products
    .$if(category !== undefined, (qb) => qb.where('products.category', '=', category!))
    .$if(name !== undefined, (qb) => qb.where('products.name', 'ilike', containsPattern(name!)))
    .$if(subCategory !== undefined, (qb) => qb.where('products.sub_category', '=', subCategory!))
    .$if(insurer !== undefined, (qb) => qb.where('products.insurer_id', '=', insurer!))
    .$if(assigned === true, (qb) => qb.where('assignment.tenant_id', 'is not', null))
    .$if(assigned === false, (qb) => qb.where('assignment.tenant_id', 'is', null))
    .$if(distribution === 'OFFLINE', (qb) => qb.where(nothing));
}

/** One page of the products the tenant's clients can buy, by name, filtered as asked. */
export async function productPage(ctx: HandlerContext, query: ProductListQuery) {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const matching = filterProducts(visibleProducts(ctx), query);
  const { offset, paginator } = await pageOf(matching, page, limit);
  const rows = await matching.select(productColumns).orderBy('products.name').orderBy('products.id').limit(limit).offset(offset).execute();
  return { products: rows.map(toProduct), paginator };
}

/** One product the tenant's clients may buy; any other is not found. */
export async function visibleProduct(ctx: HandlerContext, id: string): Promise<Product> {
  const row = await visibleProducts(ctx).select(productColumns).where('products.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Product');
  return toProduct(row);
}
