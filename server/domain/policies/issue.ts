import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { raiseInvoice, type BilledPolicy } from '../money/billing.js';
import { givenNumber, takeNumber, TAKEN_NUMBER } from '../../platform/numbering.js';
import { sql } from 'kysely';
import { INITIAL_STATE_NOTES, initialPolicyState, type StateActor } from '../states/policy.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { productForSale } from '../products/sale.js';
import { priceCover } from './reprice.js';
import { checkTerm, type Asset } from './rules.js';
import { companyPolicy, type Policy } from './view.js';
import { todayOf, type Today } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';
import { emit } from '../events/catalogue.js';
import type { EventServices } from '../../platform/events.js';

export type PolicyCreateRequest = components['schemas']['PolicyCreateRequest'];

/**
 * Who sells the policy. A client buys for itself: ONLINE products only, at the rated price, with
 * no policy number or staff member of its own. Staff sell for a client: OFFLINE products too, a
 * premium within their latitude, an existing policy number, and a staff member credited.
 */
export type Seller =
  | { by: 'client' }
  | { by: 'staff'; staffId: string; originatingStaffId: string; premiumLatitude: number };
export const CLIENT_SELLS: Seller = { by: 'client' };
/** The staff member a sale's invoice is raised by: the seller when staff sell, none when the client buys. */
export const staffOf = (seller: Seller): string | null => (seller.by === 'staff' ? seller.staffId : null);

/**
 * The ACTIVE product the seller may sell, for this policy type: for a client an ONLINE one (400
 * naming `productId` when the client cannot see it: unknown, OFFLINE, another company's), for
 * staff either distribution; 400 when it is for another type, 409 `PRODUCT_DEACTIVATED` when it is
 * no longer sold (`productForSale`). Reads through `db` as given (a transaction's, inside one).
 */
export async function sellableProduct(ctx: HandlerContext, productId: string, policyType: string, root = 'body', db = ctx.db, seller: Seller = CLIENT_SELLS,
  currency?: string) {
  const product = await productForSale(ctx, productId, { by: seller.by, db, field: `${root}.productId`, currency });
  if (product.category !== policyType) throw badRequest(`${root}.productId: the product is for ${product.category} cover, not ${policyType}`);
  return product;
}

/** An ACTIVE currency, and an exchange rate of 1 for the tenant's base (default) currency. */
export async function checkCurrency(scope: TenantScope, currency: string, exchangeRate: number, root = 'body') {
  const row = await scope.db.selectFrom('currencies').select(['status', 'is_default']).where('code', '=', currency).executeTakeFirst();
  assertCurrency(row, currency, exchangeRate, root);
}

/** `checkCurrency` of a currency's row read already (none when the code is unknown). */
function assertCurrency(row: { status: string | null; is_default: boolean | null } | undefined, currency: string, exchangeRate: number, root: string) {
  if (!row || row.status !== 'ACTIVE') throw badRequest(`${root}.currency: ${currency} is not an ACTIVE currency (see GET /currencies)`);
  if (row.is_default && exchangeRate !== 1) throw badRequest(`${root}.exchangeRate must be 1 for ${currency}, the base currency`);
}

/** What a client's create body may not say: a policy number, an originating staff member, another client. */
export function checkClientFields(body: { policyNo?: string; originatingStaffId?: string; clientId?: string }, clientId: string, root = 'body') {
  if (body.policyNo !== undefined) throw badRequest(`${root}.policyNo is assigned by the server; leave it out`);
  if (body.originatingStaffId !== undefined) throw badRequest(`${root}.originatingStaffId can only be set by staff; leave it out`);
  if (body.clientId !== undefined && body.clientId !== clientId) throw badRequest(`${root}.clientId: a client can only create policies for itself`);
}

/** The fields of a create body a renewal check reads. */
export interface RenewalFields { oldPolicyId?: string; businessType: string; policyType: string }

/** The policy a renewal names: the client's own, of the same type, and not renewed yet. */
export async function checkRenewal(scope: TenantScope, body: RenewalFields, clientId: string, root = 'body') {
  if (body.oldPolicyId === undefined) return;
  // Another client's policy is as unknown as one that never existed: 404, like a path id.
  const old = await scope.selectFrom('policies').select(['id', 'policy_no', 'policy_type'])
    .where('id', '=', body.oldPolicyId).where('client_id', '=', clientId).executeTakeFirst();
  if (!old) throw notFound('Policy');
  if (body.businessType !== 'RENEWAL') throw badRequest(`${root}.oldPolicyId is only allowed when ${root}.businessType is RENEWAL`);
  if (old.policy_type !== body.policyType) throw badRequest(`${root}.oldPolicyId: policy ${old.policy_no} is ${old.policy_type} cover, not ${body.policyType}`);
  await assertNotRenewed(scope, old);
}

export async function assertNotRenewed(scope: TenantScope, old: { id: string; policy_no: string }) {
  const renewal = await scope.selectFrom('policies').select('policy_no').where('old_policy_id', '=', old.id).executeTakeFirst();
  if (renewal) throw conflict(`Policy ${old.policy_no} has already been renewed by ${renewal.policy_no}`, 'ALREADY_RENEWED');
}

/** A create body checked and priced, ready to be written: nothing is written yet. */
export interface PreparedPolicy {
  body: PolicyCreateRequest;
  /** Where its error messages point (`body`, or `cart[<id>]` for a cart item). */
  root: string;
  product: Awaited<ReturnType<typeof sellableProduct>>;
  exchangeRate: number;
  generateInvoice: boolean;
  fleetDiscountRate: number | null;
  assets: Asset[];
  rating: ReturnType<typeof priceCover>['rating'];
  columns: ReturnType<typeof priceCover>['columns'];
  now: Date;
  today: Today;
  seller: Seller;
}

/**
 * Checks what the schema cannot about a client's create body (any policy type) and prices it,
 * writing nothing: the product, the currency, the dates, the assets' rules, a quoted premium.
 * Reads through `scope` as given (a transaction's, inside one).
 */
export async function preparePolicy(
  ctx: HandlerContext, scope: TenantScope, clientId: string, body: PolicyCreateRequest, root = 'body', seller: Seller = CLIENT_SELLS,
): Promise<PreparedPolicy> {
  if (seller.by === 'client') checkClientFields(body, clientId, root);
  const now = ctx.clock.now();
  const today = todayOf(now);
  checkTerm(body.startDate, body.endDate, today, root);
  const exchangeRate = body.exchangeRate ?? 1;
  const generateInvoice = body.generateInvoice ?? true;
  const fleetDiscountRate = 'fleetDiscountRate' in body ? body.fleetDiscountRate ?? null : null;

  // The product and the currency in one query; the product's errors first, as before.
  const product = await sellableProduct(ctx, body.productId, body.policyType, root, scope.db, seller, body.currency);
  assertCurrency({ status: product.currency_status, is_default: product.currency_is_default }, body.currency, exchangeRate, root);
  const { assets, rating, columns } = priceCover({
    policyType: body.policyType, premiumRates: product.premium_rates, currency: body.currency,
    startDate: body.startDate, endDate: body.endDate, fleetDiscountRate,
    schemeSumInsured: 'sumInsured' in body ? body.sumInsured : undefined,
    assets: body.assets as Asset[],
    ...(seller.by === 'staff'
      ? { staffPremium: body.premium === undefined ? undefined : { premium: body.premium, latitude: seller.premiumLatitude } }
      : { quotedPremium: body.premium }),
  }, today, root);
  return { body, root, product, exchangeRate, generateInvoice, fleetDiscountRate, assets, rating, columns, now, today, seller };
}

export interface WriteOptions {
  /**
   * Raise the policy's own invoice when it asks for one, then record its events (the default); a
   * cart checkout bills its policies on one invoice instead, and records their events then (`announcePolicy`).
   */
  ownInvoice?: boolean;
  /** Tell the client (the default); a cart checkout tells it once for all its policies. */
  notify?: boolean;
}

/**
 * Writes a prepared policy: the renewal check, its number, the
 * policy, its assets, its first state (`PROCESSING` when invoiced, else `DRAFT`, recorded as
 * `actor`'s), and unless told otherwise its invoice and the client's notification. Answers what an
 * invoice needs to bill it.
 */
export async function writePolicy(
  ctx: HandlerContext, scope: TransactionScope, clientId: string, prepared: PreparedPolicy, actor: StateActor,
  { ownInvoice = true, notify = true }: WriteOptions = {},
): Promise<BilledPolicy & { announced?: Policy }> {
  const { body, product, exchangeRate, generateInvoice, fleetDiscountRate, assets, rating, columns, now, today, seller } = prepared;
  await checkRenewal(scope, body, clientId, prepared.root);
  const ownNo = seller.by === 'staff' && body.policyNo !== undefined ? await freePolicyNo(scope, body.policyNo, prepared.root) : undefined;
  const state = initialPolicyState(generateInvoice);
  // One statement: its number, the policy, its assets and its first state (a chain of data-modifying CTEs).
  const policy = await scope.db
    .with('taken_number', ownNo === undefined ? takeNumber(scope, 'POL') : givenNumber(ownNo))
    .with('policy', (db) => db.insertInto('policies').values({
      tenant_id: scope.tenantId,
      policy_no: TAKEN_NUMBER,
      client_id: clientId,
      product_id: product.id,
      policy_type: body.policyType,
      state,
      coverage_type: body.coverageType ?? product.sub_category ?? product.category,
      cover_type: body.coverType ?? null,
      business_type: body.businessType,
      business_category: body.businessCategory ?? 'LOCAL',
      currency: body.currency,
      exchange_rate: exchangeRate,
      ...columns,
      fleet_discount_rate: fleetDiscountRate,
      start_date: body.startDate,
      end_date: body.endDate,
      generate_invoice: generateInvoice,
      old_policy_id: body.oldPolicyId ?? null,
      notes: body.notes ?? null,
      description: body.description ?? null,
      additional_information: body.additionalInformation ? JSON.stringify(body.additionalInformation) : null,
      group_id: body.groupId ?? null,
      created_by_staff_id: seller.by === 'staff' ? seller.staffId : null,
      originating_staff_id: seller.by === 'staff' ? seller.originatingStaffId : null,
      created_at: now,
      updated_at: now,
    }).returning(['id', 'policy_no', 'tenant_id', 'created_at']))
    .with('asset', (db) => db.insertInto('policy_assets').columns(['tenant_id', 'policy_id', 'position', 'details', 'sum_insured', 'premium'])
      .expression((eb) => eb.selectFrom(['policy', assetRows(assets, rating.assetPremiums)])
        .select(['policy.tenant_id', 'policy.id as policy_id', 'asset.position', 'asset.details', 'asset.sum_insured', 'asset.premium'])))
    .with('first_state', (db) => db.insertInto('policy_state_changes')
      .columns(['tenant_id', 'policy_id', 'from_state', 'to_state', 'actor_kind', 'actor_id', 'notes', 'created_at'])
      .expression((eb) => eb.selectFrom('policy').select([
        'policy.tenant_id', 'policy.id as policy_id', sql<null>`null::text`.as('from_state'), sql<string>`${state}::text`.as('to_state'),
        sql<string>`${actor.by}::text`.as('actor_kind'), sql<string | null>`${actor.id}::uuid`.as('actor_id'),
        sql<string>`${INITIAL_STATE_NOTES}::text`.as('notes'), 'policy.created_at',
      ])))
    .selectFrom('policy').select(['id', 'policy_no']).executeTakeFirstOrThrow();
  const policyNo = policy.policy_no;
  const billed: BilledPolicy & { announced?: Policy } = { id: policy.id, policyNo, premium: rating.premium };
  if (ownInvoice) {
    if (generateInvoice) {
      await raiseInvoice(ctx, scope, { clientId, currency: body.currency, exchangeRate, policies: [billed], createdByStaffId: staffOf(seller), actor }, today.date, now);
    }
    billed.announced = await announcePolicy(ctx, scope, { id: policy.id, oldPolicyId: body.oldPolicyId }, actor, now);
  }
  if (notify) {
    await notifyClient(ctx, scope, clientId, {
      title: `Policy ${policyNo} created`,
      body: `Your ${body.policyType.replaceAll('_', ' ').toLowerCase()} policy ${policyNo} costs ${body.currency} ${rating.premium.toFixed(2)}.`
        + (generateInvoice ? ' Pay its invoice to activate it.' : ' It is a draft until its invoice is raised.'),
      entity: { name: 'policy', id: policy.id },
    });
  }
  return billed;
}

/**
 * Records a written policy's events once it is billed as it will be (its invoice raised, or none
 * asked for), so its `data.object` is the policy as its GET then answers: `policy.created`, and
 * `policy.renewed` when it renews another (`oldPolicyId`: the renewal endpoint, or a RENEWAL body naming it).
 */
export async function announcePolicy(services: EventServices, scope: TransactionScope, policy: { id: string; oldPolicyId?: string },
  actor: StateActor, at: Date): Promise<Policy> {
  const object = { type: 'policy', id: policy.id } as const;
  // Its snapshot (as server/domain/snapshots.ts reads a policy's), read here so the caller can answer it.
  const created = await companyPolicy(scope, policy.id);
  await emit(services, scope, actor, { type: 'policy.created', object, data: {} }, at);
  if (policy.oldPolicyId !== undefined) await emit(services, scope, actor, { type: 'policy.renewed', object, data: { oldPolicyId: policy.oldPolicyId } }, at);
  return created;
}

/**
 * Creates a policy for a client from a create body (any policy type): checks what the schema
 * cannot, prices it, numbers it, and writes the policy, its assets, its first state (`actor`'s),
 * its invoice and the client's notification in one transaction.
 */
export async function issuePolicy(
  ctx: HandlerContext, clientId: string, body: PolicyCreateRequest, actor: StateActor, seller: Seller = CLIENT_SELLS,
): Promise<Policy> {
  const prepared = await preparePolicy(ctx, ctx.scope, clientId, body, 'body', seller);
  // The answer is the policy as its `policy.created` carries it: read in the transaction once
  // it is billed, as its GET then answers it (the client's own policy), not read again after.
  const { announced } = await ctx.scope.transaction((scope) => writePolicy(ctx, scope, clientId, prepared, actor));
  return announced!;
}

/** A policy number staff record an existing policy under, if no policy of the company has it yet (409 otherwise). */
async function freePolicyNo(scope: TenantScope, policyNo: string, root: string): Promise<string> {
  const taken = await scope.selectFrom('policies').select('id').where('policy_no', '=', policyNo).executeTakeFirst();
  if (taken) throw conflict(`${root}.policyNo: policy number ${policyNo} is already taken`, 'POLICY_NO_TAKEN');
  return policyNo;
}

/** A policy's assets, priced, as the rows of a relation `asset` of one statement (one JSON value, however many assets). */
function assetRows(assets: Asset[], premiums: Decimal[]) {
  const rows = assets.map((asset, position) => ({
    position,
    details: asset,
    sum_insured: typeof asset.sumInsured === 'number' ? asset.sumInsured : null,
    premium: premiums[position].toFixed(2),
  }));
  return sql<{ position: number; details: Asset; sum_insured: number | null; premium: string }>`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`
    .as<'asset'>(sql`asset(position integer, details jsonb, sum_insured numeric, premium numeric)`);
}

/** Writes a policy's assets, priced: replacing those it had, unless it is `new` (nothing to delete). */
export async function writeAssets(scope: TenantScope, policyId: string, assets: Asset[], premiums: Decimal[], { isNew = false } = {}) {
  if (!isNew) await scope.deleteFrom('policy_assets').where('policy_id', '=', policyId).execute();
  await scope.insertInto('policy_assets', assets.map((asset, position) => ({
    policy_id: policyId,
    position,
    details: JSON.stringify(asset),
    sum_insured: typeof asset.sumInsured === 'number' ? asset.sumInsured : null,
    premium: premiums[position].toFixed(2),
  }))).execute();
}
