import type { Kysely, Transaction } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import type { Database } from '../../platform/db/schema.js';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { COMMISSION_FIELDS, commissionColumn, commissionOf } from './commission.js';
import { TransactionScope } from '../../platform/tenancy.js';
import { emit } from '../events/catalogue.js';
import { changedFields } from '../events/changes.js';
import { companyProducts, productSeenBy, toProducts, withProductColumns, type Product } from './visible.js';

/**
 * Products as an insurer's staff keep them. Decisions:
 * - Only a company that underwrites creates and changes products: an INSURER or a MICRO_INSURER,
 *   which is the insurer of every product it creates. A broker, digital agent or agent creates none
 *   (403 `NOT_AN_INSURER`): it sells the products insurers assign to it.
 * - Only the company that owns a product changes, (de)activates or assigns it; a product assigned
 *   to the caller's company answers 403 `NOT_PRODUCT_OWNER`, anyone else's 404.
 * - A product is assigned to any other company (not to its owner); staff of that company see it,
 *   and its clients too while it is ACTIVE and ONLINE.
 * Each change checks and writes in one transaction, the product row locked: the call's own
 * (`ctx.scope.transaction`, which joins the one an Idempotency-Key runs the call in).
 */

type ProductInput = components['schemas']['ProductInput'];
type ProductUpdate = components['schemas']['ProductUpdate'];
type Ctx = Pick<HandlerContext, 'db' | 'scope' | 'tenant' | 'clock'>;
type Emitting = Ctx & Pick<HandlerContext, 'reactions' | 'eventSnapshots'>;

const UNDERWRITERS = new Set(['INSURER', 'MICRO_INSURER']);

/** Runs a change in the call's transaction (joining one already open), over the whole database: products are not a tenant's rows. */
const inTransaction = <T>(ctx: Ctx, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
  ctx.scope.transaction((scope) => change(scope.db));

/** The caller's company, if it underwrites; 403 `NOT_AN_INSURER` otherwise. */
async function assertUnderwriter(ctx: Ctx, db: Kysely<Database>, doing: string) {
  const company = await db.selectFrom('companies').select(['name', 'type']).where('id', '=', ctx.tenant.id).executeTakeFirstOrThrow();
  if (!UNDERWRITERS.has(company.type)) {
    throw forbidden(`${company.name} is a ${company.type}: only an INSURER or a MICRO_INSURER ${doing} products; brokers and agents sell the products insurers assign to them`, 'NOT_AN_INSURER');
  }
}

/** One of the tenant's products as its staff see it; 404 for any other. */
export async function staffProduct(ctx: Pick<HandlerContext, 'db' | 'tenant'>, id: string, db: Kysely<Database> = ctx.db): Promise<Product> {
  const row = await withProductColumns(companyProducts(ctx, db), ctx, 'staff').where('products.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Product');
  return toProducts([row])[0];
}

/** The tenant's own product, locked for the change: 404 if the tenant cannot see it, 403 if it is only assigned to it. */
async function ownedProduct(ctx: Ctx, trx: Transaction<Database>, id: string) {
  const row = await companyProducts(ctx, trx)
    .select(['products.id', 'products.code', 'products.status', 'products.category', 'products.owner_tenant_id', 'insurer.name as insurer_name'])
    .where('products.id', '=', id)
    .forUpdate('products')
    .executeTakeFirst();
  if (!row) throw notFound('Product');
  if (row.owner_tenant_id !== ctx.tenant.id) {
    throw forbidden(`Product ${row.code} is assigned to your company by ${row.insurer_name}; only its insurer changes it`, 'NOT_PRODUCT_OWNER');
  }
  return row;
}

/** 409 if the insurer already has another product with this code. */
async function assertCodeFree(trx: Transaction<Database>, insurerId: string, code: string, except?: string) {
  const taken = await trx.selectFrom('products').select('id').where('insurer_id', '=', insurerId).where('code', '=', code)
    .$if(except !== undefined, (qb) => qb.where('id', '<>', except!))
    .executeTakeFirst();
  if (taken) throw codeTaken(code);
}

const codeTaken = (code: string) => conflict(`body.code: the insurer already has a product with code ${code}`, 'PRODUCT_CODE_TAKEN');

/** Runs a change, answering the unique (insurer, code) index's refusal as 409 too (a concurrent create). */
async function guarded<T>(code: string | undefined, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof ApiError) && code !== undefined && violatedUniqueConstraint(error) !== undefined) throw codeTaken(code);
    throw error;
  }
}

/** The commission columns for the commissions a body sends (null removes one). */
function commissionColumns(body: Partial<Record<typeof COMMISSION_FIELDS[number], components['schemas']['CommissionInput'] | null>>) {
  const columns: Partial<Record<'standard_commission' | 'overrider_commission' | 'other_commission', string>> = {};
  const column = { standardCommission: 'standard_commission', overriderCommission: 'overrider_commission', otherCommission: 'other_commission' } as const;
  for (const field of COMMISSION_FIELDS) {
    const input = body[field];
    if (input !== undefined) columns[column[field]] = commissionColumn(commissionOf(input, `body.${field}`));
  }
  return columns;
}

/** A new product of the caller's company, which underwrites it; `createdBy` is the staff member (`product.created`). */
export async function createProduct(ctx: Emitting, staffId: string, body: ProductInput): Promise<Product> {
  await assertUnderwriter(ctx, ctx.scope.db, 'creates');
  if (body.insurerId !== undefined && body.insurerId !== ctx.tenant.id) {
    throw badRequest(`body.insurerId must be your own company's id (${ctx.tenant.id}): an insurer creates the products it underwrites`);
  }
  const commissions = commissionColumns(body);
  const now = ctx.clock.now();
  return guarded(body.code, () => inTransaction(ctx, async (trx) => {
    await assertCodeFree(trx, ctx.tenant.id, body.code);
    const { id } = await trx.insertInto('products').values({
      owner_tenant_id: ctx.tenant.id, insurer_id: ctx.tenant.id, name: body.name, code: body.code,
      description: body.description ?? null, premium_rates: JSON.stringify(body.premiumRates ?? {}), category: body.category,
      sub_category: body.subCategory ?? null, benefits: JSON.stringify(body.benefits ?? []),
      status: body.status ?? 'ACTIVE', distribution: body.distribution ?? 'OFFLINE',
      standard_commission: 'null', overrider_commission: 'null', other_commission: 'null', ...commissions,
      created_by: staffId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await emit(ctx, new TransactionScope(trx, ctx.tenant.id), { by: 'staff', id: staffId }, { type: 'product.created', object: { type: 'product', id }, data: {} }, now);
    return staffProduct(ctx, id, trx);
  }));
}

/** Some of the owner's product's fields; a new category only while no policy is on the product. */
export async function updateProduct(ctx: Ctx, id: string, body: ProductUpdate): Promise<Product> {
  await assertUnderwriter(ctx, ctx.scope.db, 'changes');
  const commissions = commissionColumns(body);
  return guarded(body.code, () => inTransaction(ctx, async (trx) => {
    const product = await ownedProduct(ctx, trx, id);
    if (body.code !== undefined) await assertCodeFree(trx, ctx.tenant.id, body.code, id);
    if (body.category !== undefined && body.category !== product.category) {
      // Policies of any company selling the product keep their type: the product's must not move under them.
      const sold = await trx.selectFrom('policies').select('id').where('product_id', '=', id).limit(1).executeTakeFirst();
      if (sold) throw conflict(`body.category: product ${product.code} already has policies of ${product.category} cover; create a new product instead`, 'PRODUCT_IN_USE');
    }
    await trx.updateTable('products').set({
      ...(body.name !== undefined && { name: body.name }),
      ...(body.code !== undefined && { code: body.code }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.premiumRates !== undefined && { premium_rates: JSON.stringify(body.premiumRates) }),
      ...(body.category !== undefined && { category: body.category }),
      ...(body.subCategory !== undefined && { sub_category: body.subCategory }),
      ...(body.benefits !== undefined && { benefits: JSON.stringify(body.benefits) }),
      ...(body.distribution !== undefined && { distribution: body.distribution }),
      ...commissions,
      updated_at: ctx.clock.now(),
    }).where('id', '=', id).execute();
    return staffProduct(ctx, id, trx);
  }));
}

/**
 * Puts the owner's product on sale (ACTIVE) or takes it off (DEACTIVATED), recording who and when.
 * A product already in that status is answered unchanged (a retry changes nothing).
 */
export async function setProductStatus(ctx: Ctx, staffId: string, id: string, status: 'ACTIVE' | 'DEACTIVATED'): Promise<Product> {
  await assertUnderwriter(ctx, ctx.scope.db, status === 'ACTIVE' ? 'activates' : 'deactivates');
  return inTransaction(ctx, async (trx) => {
    const product = await ownedProduct(ctx, trx, id);
    if (product.status !== status) {
      const now = ctx.clock.now();
      await trx.updateTable('products').set({ status, status_changed_by: staffId, status_changed_at: now, updated_at: now })
        .where('id', '=', id).execute();
    }
    return staffProduct(ctx, id, trx);
  });
}

/**
 * Records `product.assigned` or `product.unassigned` in the owner's company and in the company the
 * product is assigned to or withdrawn from, each with the product as its own staff see it and
 * `previous` what changed in that view (`assignedTo`; the assignee's `assignedAt` and `assignedBy` too).
 * `change` makes the assignment or removes it between the two readings.
 */
async function recordAssignment(
  ctx: Emitting, trx: Transaction<Database>, staffId: string, type: 'product.assigned' | 'product.unassigned', id: string, companyId: string,
  change: (now: Date) => Promise<void>,
) {
  const now = ctx.clock.now();
  const tenants = [ctx.tenant.id, companyId];
  const before: Product[] = [];
  for (const tenantId of tenants) before.push(await productSeenBy(trx, tenantId, id));
  await change(now);
  await trx.updateTable('products').set({ updated_at: now }).where('id', '=', id).execute();
  for (const [index, tenantId] of tenants.entries()) {
    const previous = changedFields(before[index], await productSeenBy(trx, tenantId, id));
    await emit(ctx, new TransactionScope(trx, tenantId), { by: 'staff', id: staffId }, { type, object: { type: 'product', id }, data: { companyId } }, now,
      { previous: previous ?? undefined });
  }
}

/** Assigns the owner's product to another company, recording who and when (`product.assigned`, in both companies). */
export async function assignProduct(ctx: Emitting, staffId: string, id: string, companyId: string): Promise<Product> {
  await assertUnderwriter(ctx, ctx.scope.db, 'assigns');
  return inTransaction(ctx, async (trx) => {
    const product = await ownedProduct(ctx, trx, id);
    const company = await trx.selectFrom('companies').select(['id', 'name']).where('id', '=', companyId).executeTakeFirst();
    if (!company) throw notFound('Company');
    if (company.id === ctx.tenant.id) throw conflict("body.companyId: the product is your company's own; assign it to another company", 'SELF_ASSIGNMENT');
    const existing = await trx.selectFrom('product_assignments').select('tenant_id')
      .where('product_id', '=', id).where('tenant_id', '=', companyId).executeTakeFirst();
    if (existing) throw conflict(`body.companyId: product ${product.code} is already assigned to ${company.name}`, 'ALREADY_ASSIGNED');
    await recordAssignment(ctx, trx, staffId, 'product.assigned', id, companyId, async (now) => {
      await trx.insertInto('product_assignments').values({ tenant_id: companyId, product_id: id, assigned_by: staffId, assigned_at: now }).execute();
    });
    return staffProduct(ctx, id, trx);
  });
}

/** Withdraws the owner's product from a company it is assigned to (`product.unassigned`, in both companies); 404 if it is not. */
export async function unassignProduct(ctx: Emitting, staffId: string, id: string, companyId: string): Promise<Product> {
  await assertUnderwriter(ctx, ctx.scope.db, 'withdraws');
  return inTransaction(ctx, async (trx) => {
    await ownedProduct(ctx, trx, id);
    const assigned = await trx.selectFrom('product_assignments').select('tenant_id').where('product_id', '=', id).where('tenant_id', '=', companyId)
      .forUpdate().executeTakeFirst();
    if (!assigned) throw notFound('Assignment');
    await recordAssignment(ctx, trx, staffId, 'product.unassigned', id, companyId, async () => {
      await trx.deleteFrom('product_assignments').where('product_id', '=', id).where('tenant_id', '=', companyId).execute();
    });
    return staffProduct(ctx, id, trx);
  });
}
