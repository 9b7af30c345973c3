import type { operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { Kysely } from 'kysely';
import { compiledQueries, compiledQuery } from '../../platform/db/compiled-query.js';
import type { Database } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors.js';
import { containsPattern } from '../../platform/filters.js';
import { paginate } from '../../platform/pagination.js';
import { companyProducts, nothing, toProducts, visibleProducts, withProductColumns, type Product, type ProductViewer } from './visible.js';

type ProductListQuery = NonNullable<operations['listProducts']['parameters']['query']>;
type StaffProductListQuery = NonNullable<operations['listStaffProducts']['parameters']['query']>;
/** The list's filters, a client's or a staff member's. */
export type ProductFilters = Omit<ProductListQuery, 'page' | 'limit'> & Omit<StaffProductListQuery, 'page' | 'limit'>;

type Products = ReturnType<typeof companyProducts>;

/** The list's filters with the name's filter as its pattern: the values a compiled product list takes. */
type ProductFilterValues = Omit<ProductFilters, 'name'> & { namePattern?: string };

/**
 * Which filters a list request uses, as the shape of its query (values apart): the viewer, each
 * filter given, and for `assigned`, and a client's `distribution`, the value, which picks the
 * condition. Few shapes: each is compiled once, on first use.
 */
function shapeOf(filters: ProductFilters, viewer: ProductViewer): string {
  const given = (['category', 'name', 'subCategory', 'insurer', 'insurerId', 'status'] as const).filter((name) => filters[name] !== undefined);
  const assigned = filters.assigned === undefined ? [] : [`assigned=${filters.assigned}`];
  const distribution = filters.distribution === undefined ? [] : [viewer === 'staff' ? 'distribution' : `distribution=${filters.distribution}`];
  return [viewer, ...given, ...assigned, ...distribution].join(' ');
}

/**
 * Products narrowed by the list's filters, of the given shape. `assigned=true` keeps the products
 * another company assigned to the tenant, `false` its own. A client sees no OFFLINE product, so
 * asking for them matches nothing; staff filter both channels and both statuses.
 */
function matchingProducts(shape: string, db: Kysely<Database>, values: ProductFilterValues & { tenantId: string }) {
  const uses = new Set(shape.split(' '));
  const viewing = { db, tenant: { id: values.tenantId } };
  const products = uses.has('staff') ? companyProducts(viewing) : visibleProducts(viewing);
  return products
    .$if(uses.has('category'), (qb) => qb.where('products.category', '=', values.category!))
    .$if(uses.has('name'), (qb) => qb.where('products.name', 'ilike', values.namePattern!))
    .$if(uses.has('subCategory'), (qb) => qb.where('products.sub_category', '=', values.subCategory!))
    .$if(uses.has('insurer'), (qb) => qb.where('products.insurer_id', '=', values.insurer!))
    .$if(uses.has('insurerId'), (qb) => qb.where('products.insurer_id', '=', values.insurerId!))
    .$if(uses.has('assigned=true'), (qb) => qb.where('assignment.tenant_id', 'is not', null))
    .$if(uses.has('assigned=false'), (qb) => qb.where('assignment.tenant_id', 'is', null))
    .$if(uses.has('status'), (qb) => qb.where('products.status', '=', values.status!))
    .$if(uses.has('distribution'), (qb) => qb.where('products.distribution', '=', values.distribution!))
    .$if(uses.has('distribution=OFFLINE'), (qb) => qb.where(nothing));
}

type ListValues = ProductFilterValues & { tenantId: string; limit?: number; offset?: number; [name: string]: unknown };
// A page's count and rows, each built once per shape: the product list is a client app's first screen.
const productCount = compiledQueries((shape: string, db, values: ListValues) =>
  matchingProducts(shape, db, values).select((eb) => eb.fn.countAll<string>().as('count')));
const productRows = compiledQueries((shape: string, db, values: ListValues) =>
  withProductColumns(matchingProducts(shape, db, values), { tenant: { id: values.tenantId } }, shape.startsWith('staff') ? 'staff' : 'client')
    .orderBy('products.name').orderBy('products.id').limit(values.limit!).offset(values.offset!));

async function pageOfProducts(ctx: HandlerContext, query: ProductFilters & { page?: number; limit?: number }, viewer: ProductViewer) {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const shape = shapeOf(query, viewer);
  const { name, ...filters } = query;
  const values: ListValues = { ...filters, ...(name === undefined ? {} : { namePattern: containsPattern(name) }), tenantId: ctx.tenant.id };
  const [{ count }] = await productCount(shape, ctx.db, values);
  const { offset, paginator } = paginate({ page, limit, itemsCount: Number(count) });
  const rows = await productRows(shape, ctx.db, { ...values, limit, offset });
  return { products: toProducts(rows), paginator };
}

/** One page of the products the tenant's clients can buy, by name, filtered as asked. */
export async function productPage(ctx: HandlerContext, query: ProductListQuery) {
  return pageOfProducts(ctx, query, 'client');
}

/** One page of the tenant's products as its staff see them (own and assigned, any status, both channels). */
export async function staffProductPage(ctx: HandlerContext, query: StaffProductListQuery) {
  return pageOfProducts(ctx, query, 'staff');
}

/** A product a client may see, by id: built once (the read by id is a hot path). */
const visibleProductById = compiledQuery((db, params: { tenantId: string; id: string }) => {
  const viewing = { db, tenant: { id: params.tenantId } };
  return withProductColumns(visibleProducts(viewing), viewing, 'client').where('products.id', '=', params.id);
});

/** One product the tenant's clients may buy; any other is not found. */
export async function visibleProduct(ctx: HandlerContext, id: string): Promise<Product> {
  const [row] = await visibleProductById(ctx.db, { tenantId: ctx.tenant.id, id });
  if (!row) throw notFound('Product');
  return toProducts([row])[0];
}
