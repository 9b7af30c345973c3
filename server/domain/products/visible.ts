import { sql, type Kysely } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { CompanyKind, CompanyType, Database } from '../../platform/db/schema.js';

export type Product = components['schemas']['Product'];

/**
 * The tenant's products, as its staff see them: owned by the tenant or assigned to it, in any
 * status, ONLINE and OFFLINE. The assignment join names the tenant itself (the scope helper covers
 * single tables). `db` is the caller's transaction when it has one.
 */
export function companyProducts(ctx: Pick<HandlerContext, 'db' | 'tenant'>, db: Kysely<Database> = ctx.db) {
  return db.selectFrom('products')
    .innerJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .leftJoin('product_assignments as assignment', (join) => join
      .onRef('assignment.product_id', '=', 'products.id')
      .on('assignment.tenant_id', '=', ctx.tenant.id))
    .where((eb) => eb.or([eb('products.owner_tenant_id', '=', ctx.tenant.id), eb('assignment.tenant_id', 'is not', null)]));
}

/**
 * The products a client of the tenant may see: the tenant's products (`companyProducts`) that are
 * ACTIVE and ONLINE; OFFLINE ones are sold by staff only.
 */
export function visibleProducts(ctx: Pick<HandlerContext, 'db' | 'tenant'>, db: Kysely<Database> = ctx.db) {
  return companyProducts(ctx, db)
    .where('products.status', '=', 'ACTIVE')
    .where('products.distribution', '=', 'ONLINE');
}

export const productColumns = [
  'products.id', 'products.name', 'products.code', 'products.description', 'products.premium_rates', 'products.category',
  'products.sub_category', 'products.benefits', 'products.status', 'products.distribution', 'products.insurer_id',
  'products.standard_commission', 'products.overrider_commission', 'products.other_commission', 'products.created_at',
  'products.updated_at', 'products.created_by', 'products.status_changed_by', 'products.status_changed_at', 'products.owner_tenant_id',
  'assignment.assigned_at', 'assignment.assigned_by', 'insurer.name as insurer_name', 'insurer.type as insurer_type',
  'insurer.kind as insurer_kind', 'insurer.short_name as insurer_short_name', 'insurer.primary_color as insurer_primary_color',
] as const;

// What a query selecting productColumns answers, row by row.
const selectVisible = (ctx: HandlerContext) => companyProducts(ctx).select(productColumns).execute();
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

/**
 * The companies each product is assigned to, as the viewer may know them: the company's staff see
 * every assignment of a product it owns; otherwise (a product assigned to the company, or any
 * product in a client app) only the company's own assignment: an insurer's other distributors are
 * neither a broker's nor a client's business.
 */
export async function assignmentsOf(ctx: Pick<HandlerContext, 'db' | 'tenant'>, rows: ProductRow[], viewer: ProductViewer, db: Kysely<Database> = ctx.db) {
  const byProduct = new Map<string, Assignment[]>(rows.map((row) => [row.id, []]));
  if (rows.length === 0) return byProduct;
  const owned = viewer === 'staff' ? rows.filter((row) => row.owner_tenant_id === ctx.tenant.id).map((row) => row.id) : [];
  const found = await db.selectFrom('product_assignments as a')
    .innerJoin('companies as c', 'c.id', 'a.tenant_id')
    .select(['a.product_id', 'a.tenant_id', 'a.assigned_by', 'a.assigned_at', 'c.name', 'c.type'])
    .where('a.product_id', 'in', rows.map((row) => row.id))
    .where((eb) => (owned.length
      ? eb.or([eb('a.product_id', 'in', owned), eb('a.tenant_id', '=', ctx.tenant.id)])
      : eb('a.tenant_id', '=', ctx.tenant.id)))
    .orderBy('a.assigned_at').orderBy('c.name')
    .execute();
  for (const a of found) {
    byProduct.get(a.product_id)!.push({
      companyId: a.tenant_id, name: a.name, type: a.type, assignedBy: a.assigned_by, assignedAt: new Date(a.assigned_at).toISOString(),
    });
  }
  return byProduct;
}

/** Rows (with their insurer) -> Products, each with the companies it is assigned to. */
export async function toProducts(ctx: Pick<HandlerContext, 'db' | 'tenant'>, rows: ProductRow[], viewer: ProductViewer, db: Kysely<Database> = ctx.db): Promise<Product[]> {
  const assignments = await assignmentsOf(ctx, rows, viewer, db);
  return rows.map((row) => toProduct(row, assignments.get(row.id) ?? []));
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
