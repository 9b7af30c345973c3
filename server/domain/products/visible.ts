import { sql, type Kysely } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { CompanyKind, CompanyType, Database } from '../../platform/db/schema.js';

export type Product = components['schemas']['Product'];

/**
 * The products a client of the tenant may see: ACTIVE and ONLINE, owned by the tenant or assigned
 * to it; with `offline`, the OFFLINE ones too (staff sell them). The assignment join names the
 * tenant itself (the scope helper covers single tables). `db` is the caller's transaction when it has one.
 */
export function visibleProducts(ctx: HandlerContext, db: Kysely<Database> = ctx.db, { offline = false } = {}) {
  return db.selectFrom('products')
    .innerJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .leftJoin('product_assignments as assignment', (join) => join
      .onRef('assignment.product_id', '=', 'products.id')
      .on('assignment.tenant_id', '=', ctx.tenant.id))
    .where('products.status', '=', 'ACTIVE')
    .$if(!offline, (qb) => qb.where('products.distribution', '=', 'ONLINE'))
    .where((eb) => eb.or([eb('products.owner_tenant_id', '=', ctx.tenant.id), eb('assignment.tenant_id', 'is not', null)]));
}

export const productColumns = [
  'products.id', 'products.name', 'products.code', 'products.description', 'products.premium_rates', 'products.category',
  'products.sub_category', 'products.benefits', 'products.status', 'products.distribution', 'products.insurer_id',
  'products.standard_commission', 'products.overrider_commission', 'products.other_commission', 'products.created_at',
  'products.updated_at', 'assignment.assigned_at', 'insurer.name as insurer_name', 'insurer.type as insurer_type',
  'insurer.kind as insurer_kind', 'insurer.short_name as insurer_short_name', 'insurer.primary_color as insurer_primary_color',
] as const;

// What a query selecting productColumns answers, row by row.
const selectVisible = (ctx: HandlerContext) => visibleProducts(ctx).select(productColumns).execute();
type ProductRow = Awaited<ReturnType<typeof selectVisible>>[number];

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

/** Row (with its insurer) -> Product. */
export function toProduct(row: ProductRow): Product {
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
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** For a client, OFFLINE products do not exist: a filter asking only for them matches nothing. */
export const nothing = sql<boolean>`false`;
