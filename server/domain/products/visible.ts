import { sql, type Kysely } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, Tenant } from '../../platform/context.js';
import type { CompanyKind, CompanyType, Database } from '../../platform/db/schema.js';

export type Product = components['schemas']['Product'];

/** Who reads products: the tenant whose view it is (its id), through its database or transaction. */
type Viewing = Pick<HandlerContext, 'db'> & { tenant: Pick<Tenant, 'id'> };

/**
 * The tenant's products, as its staff see them: owned by the tenant or assigned to it, in any
 * status, ONLINE and OFFLINE. The assignment join names the tenant itself (the scope helper covers
 * single tables). Reads through `db` as given (a transaction's, inside one).
 */
export function companyProducts(ctx: Viewing, db: Kysely<Database> = ctx.db) {
  return productTables(ctx, db)
    .where((eb) => eb.or([eb('products.owner_tenant_id', '=', ctx.tenant.id), eb('assignment.tenant_id', 'is not', null)]));
}

/** Products with their insurer and the tenant's own assignment, whether the tenant sees them or not. */
function productTables(ctx: Viewing, db: Kysely<Database>) {
  return db.selectFrom('products')
    .innerJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .leftJoin('product_assignments as assignment', (join) => join
      .onRef('assignment.product_id', '=', 'products.id')
      .on('assignment.tenant_id', '=', ctx.tenant.id));
}

/**
 * A product as the staff of `tenantId` see it (`GET /staff/products/{id}`), read through `db`; a
 * product withdrawn from the tenant, which it no longer sees, as it would be with no assignment:
 * what the tenant's own `product.unassigned` event carries.
 */
export async function productSeenBy(db: Kysely<Database>, tenantId: string, id: string): Promise<Product> {
  const ctx = { db, tenant: { id: tenantId } };
  const row = await withProductColumns(companyProducts(ctx), ctx, 'staff').where('products.id', '=', id).executeTakeFirst()
    ?? await withProductColumns(productTables(ctx, db), ctx, 'staff').where('products.id', '=', id).executeTakeFirstOrThrow();
  return toProducts([row])[0];
}

/**
 * The products a client of the tenant may see: the tenant's products (`companyProducts`) that are
 * ACTIVE and ONLINE; OFFLINE ones are sold by staff only.
 */
export function visibleProducts(ctx: Viewing, db: Kysely<Database> = ctx.db) {
  return companyProducts(ctx, db)
    .where('products.status', '=', 'ACTIVE')
    .where('products.distribution', '=', 'ONLINE');
}

const productColumns = [
  'products.id', 'products.name', 'products.code', 'products.description', 'products.premium_rates', 'products.category',
  'products.sub_category', 'products.benefits', 'products.status', 'products.distribution', 'products.insurer_id',
  'products.standard_commission', 'products.overrider_commission', 'products.other_commission', 'products.created_at',
  'products.updated_at', 'products.created_by', 'products.status_changed_by', 'products.status_changed_at', 'products.owner_tenant_id',
  'assignment.assigned_at', 'assignment.assigned_by', 'insurer.name as insurer_name', 'insurer.type as insurer_type',
  'insurer.kind as insurer_kind', 'insurer.short_name as insurer_short_name', 'insurer.primary_color as insurer_primary_color',
] as const;

/** An assignment as the `assigned_to` column carries it (JSON: `assignedAt` a timestamp as PostgreSQL writes it). */
type AssignmentRow = Omit<Assignment, 'assignedAt'> & { assignedAt: string };

/**
 * The companies each product is assigned to, as the viewer may know them, as one JSON column of
 * the product's own row (no second query): the company's staff see every assignment of a product
 * it owns; otherwise (a product assigned to the company, or any product in a client app) only the
 * company's own assignment: an insurer's other distributors are neither a broker's nor a client's
 * business.
 */
function assignedTo(tenantId: string, viewer: ProductViewer) {
  const owner = viewer === 'staff' ? sql`or products.owner_tenant_id = ${tenantId}` : sql``;
  return sql<AssignmentRow[]>`(select coalesce(json_agg(json_build_object('companyId', a.tenant_id, 'name', c.name, 'type', c.type,
      'assignedBy', a.assigned_by, 'assignedAt', a.assigned_at) order by a.assigned_at, c.name), '[]'::json)
    from product_assignments a join companies c on c.id = a.tenant_id
    where a.product_id = products.id and (a.tenant_id = ${tenantId} ${owner}))`.as('assigned_to');
}

/** A product query's columns for this viewer: the product, its insurer, the tenant's assignment and `assigned_to`. */
export function withProductColumns<Q extends ReturnType<typeof companyProducts>>(products: Q, ctx: Pick<Viewing, 'tenant'>, viewer: ProductViewer) {
  return products.select(productColumns).select(assignedTo(ctx.tenant.id, viewer));
}

// What a query selecting withProductColumns answers, row by row.
const selectVisible = (ctx: HandlerContext) => withProductColumns(companyProducts(ctx), ctx, 'client').execute();
export type ProductRow = Awaited<ReturnType<typeof selectVisible>>[number];
type Assignment = NonNullable<Product['assignedTo']>[number];

/** The insurer columns a product query selects (`insurer.* as insurer_*`). */
export interface InsurerColumns {
  insurer_id: string; insurer_name: string; insurer_type: CompanyType; insurer_kind: CompanyKind;
  insurer_short_name: string; insurer_primary_color: string | null;
}

/** A product's insurer as the API shows it (products, policies, quotes). */
export function insurerOf(row: InsurerColumns): Product['insurer'] {
  return { id: row.insurer_id, name: row.insurer_name, type: row.insurer_type, kind: row.insurer_kind,
    shortName: row.insurer_short_name, primaryColor: row.insurer_primary_color };
}

/** Who looks at products: the company's staff, or its clients in a client app. */
export type ProductViewer = 'staff' | 'client';

/** Rows of withProductColumns -> Products. */
export function toProducts(rows: ProductRow[]): Product[] {
  return rows.map((row) => toProduct(row, row.assigned_to.map((a) => ({ ...a, assignedAt: new Date(a.assignedAt).toISOString() }))));
}

/** Row (with its insurer) and its assignments -> Product. */
export function toProduct(row: ProductRow, assignedTo: Assignment[] = []): Product {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    premiumRates: row.premium_rates,
    category: row.category as Product['category'],
    subCategory: row.sub_category,
    benefits: row.benefits,
    status: row.status,
    distribution: row.distribution,
    insurerId: row.insurer_id,
    insurer: insurerOf(row),
    standardCommission: row.standard_commission,
    overriderCommission: row.overrider_commission,
    otherCommission: row.other_commission,
    assignedAt: row.assigned_at ? new Date(row.assigned_at).toISOString() : null,
    assignedBy: row.assigned_by ?? null,
    assignedTo,
    createdBy: row.created_by,
    statusChangedBy: row.status_changed_by,
    statusChangedAt: row.status_changed_at ? new Date(row.status_changed_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** For a client, OFFLINE products do not exist: a filter asking only for them matches nothing. */
export const nothing = sql<boolean>`false`;
