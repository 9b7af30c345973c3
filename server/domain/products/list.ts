import type { operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { compiledQuery } from '../../platform/db/compiled-query.js';
import { notFound } from '../../platform/errors.js';
import { containsPattern } from '../../platform/filters.js';
import { pageOf } from '../../platform/pagination.js';
import { companyProducts, nothing, toProducts, visibleProducts, withProductColumns, type Product, type ProductViewer } from './visible.js';

type ProductListQuery = NonNullable<operations['listProducts']['parameters']['query']>;
type StaffProductListQuery = NonNullable<operations['listStaffProducts']['parameters']['query']>;
/** The list's filters, a client's or a staff member's. */
export type ProductFilters = Omit<ProductListQuery, 'page' | 'limit'> & Omit<StaffProductListQuery, 'page' | 'limit'>;

type Products = ReturnType<typeof companyProducts>;

/**
 * Products narrowed by the list's filters. `assigned=true` keeps the products another company
 * assigned to the tenant, `false` its own. A client sees no OFFLINE product, so asking for them
 * matches nothing; staff filter both channels and both statuses.
 */
export function filterProducts(products: Products, filters: ProductFilters, viewer: ProductViewer = 'client') {
  const { category, name, subCategory, insurer, insurerId, assigned, distribution, status } = filters;
  return products
    .$if(category !== undefined, (qb) => qb.where('products.category', '=', category!))
    .$if(name !== undefined, (qb) => qb.where('products.name', 'ilike', containsPattern(name!)))
    .$if(subCategory !== undefined, (qb) => qb.where('products.sub_category', '=', subCategory!))
    .$if(insurer !== undefined, (qb) => qb.where('products.insurer_id', '=', insurer!))
    .$if(insurerId !== undefined, (qb) => qb.where('products.insurer_id', '=', insurerId!))
    .$if(assigned === true, (qb) => qb.where('assignment.tenant_id', 'is not', null))
    .$if(assigned === false, (qb) => qb.where('assignment.tenant_id', 'is', null))
    .$if(status !== undefined, (qb) => qb.where('products.status', '=', status!))
    .$if(distribution !== undefined && viewer === 'staff', (qb) => qb.where('products.distribution', '=', distribution!))
    .$if(distribution === 'OFFLINE' && viewer === 'client', (qb) => qb.where(nothing));
}

async function pageOfProducts(ctx: HandlerContext, products: Products, query: ProductFilters & { page?: number; limit?: number }, viewer: ProductViewer) {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const matching = filterProducts(products, query, viewer);
  const { offset, paginator } = await pageOf(matching, page, limit);
  const rows = await withProductColumns(matching, ctx, viewer).orderBy('products.name').orderBy('products.id').limit(limit).offset(offset).execute();
  return { products: toProducts(rows), paginator };
}

/** One page of the products the tenant's clients can buy, by name, filtered as asked. */
export async function productPage(ctx: HandlerContext, query: ProductListQuery) {
  return pageOfProducts(ctx, visibleProducts(ctx), query, 'client');
}

/** One page of the tenant's products as its staff see them (own and assigned, any status, both channels). */
export async function staffProductPage(ctx: HandlerContext, query: StaffProductListQuery) {
  return pageOfProducts(ctx, companyProducts(ctx), query, 'staff');
}

/** One product the tenant's clients may buy; any other is not found. */
/** A product a client may see, by id: built once (the read by id is a hot path). */
const visibleProductById = compiledQuery((db, params: { tenantId: string; id: string }) => {
  const viewing = { db, tenant: { id: params.tenantId } };
  return withProductColumns(visibleProducts(viewing), viewing, 'client').where('products.id', '=', params.id);
});

export async function visibleProduct(ctx: HandlerContext, id: string): Promise<Product> {
  const [row] = await visibleProductById(ctx.db, { tenantId: ctx.tenant.id, id });
  if (!row) throw notFound('Product');
  return toProducts([row])[0];
}
