import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { ApiError, conflict } from '../../platform/errors.js';
import type { StateActor } from '../states/policy.js';
import { assertNotRenewed, CLIENT_SELLS, issuePolicy, sellableProduct, type PolicyCreateRequest, type Seller } from './issue.js';
import { checkAssetShapes } from './reprice.js';
import { type Asset } from './rules.js';
import { schemeSumInsuredOf } from './types-catalogue.js';
import { assetsToReprice, ownPolicyRow, type Policy, type PolicyRow } from './view.js';
import { todayOf } from '../../platform/clock.js';

export type PolicyRenewal = components['schemas']['PolicyRenewal'];

const RENEWABLE = new Set(['ACTIVE', 'INACTIVE', 'EXPIRED', 'COMPLETE']);
const iso = (date: Date) => format(date, 'yyyy-MM-dd');

/**
 * Renews a client's policy: a RENEWAL policy naming it, same product and type, its assets (or the
 * ones sent), the next term, priced again; created through the same engine as any new policy.
 */
export async function issueRenewal(
  ctx: HandlerContext, clientId: string, policyId: string, body: PolicyRenewal, actor: StateActor, seller: Seller = CLIENT_SELLS,
): Promise<Policy> {
  const old = await ownPolicyRow(ctx.scope, policyId, clientId);
  await assertRenewable(ctx, old, seller);
  if (body.assets) checkAssetShapes(old.policy_type, body.assets);
  return issuePolicy(ctx, clientId, await renewalBody(ctx, old, body), actor, seller);
}

/** A renewal needs a finished or running policy, not renewed yet, whose product is still sold (by this seller). */
async function assertRenewable(ctx: HandlerContext, old: PolicyRow, seller: Seller) {
  if (!RENEWABLE.has(old.state)) {
    throw conflict(`Policy ${old.policy_no} is ${old.state}; only ACTIVE, INACTIVE, EXPIRED or COMPLETE policies can be renewed`, 'NOT_RENEWABLE');
  }
  await assertNotRenewed(ctx.scope, old);
  try {
    await sellableProduct(ctx, old.product_id, old.policy_type, 'body', ctx.db, seller);
  } catch (error) {
    // Not sold any more: not visible to the client now, or DEACTIVATED.
    if (!(error instanceof ApiError && (error.statusCode === 400 || error.code === 'PRODUCT_DEACTIVATED'))) throw error;
    throw conflict(`The product of policy ${old.policy_no} is no longer sold; choose another product and create a RENEWAL policy`, 'PRODUCT_UNAVAILABLE');
  }
}

/** The create body of the renewal: the old policy's cover for the next term (from today if that is later), with what was sent. */
async function renewalBody(ctx: Pick<HandlerContext, 'clock' | 'scope'>, old: PolicyRow, body: PolicyRenewal): Promise<PolicyCreateRequest> {
  const today = todayOf(ctx.clock.now());
  const next = iso(addDays(parseISO(old.end_date), 1));
  const startDate = body.startDate ?? (next < today.date ? today.date : next);
  const termDays = differenceInCalendarDays(parseISO(old.end_date), parseISO(old.start_date));
  const endDate = body.endDate ?? iso(addDays(parseISO(startDate), termDays));
  const assets = (body.assets as Asset[] | undefined)
    // An asset's own dates belonged to the old term; the new one's default to the new term.
    ?? (await assetsToReprice(ctx.scope, old.id)).map(({ startDate: _start, endDate: _end, ...asset }) => asset);

  return {
    policyType: old.policy_type,
    productId: old.product_id,
    currency: old.currency,
    exchangeRate: Number(old.exchange_rate),
    startDate,
    endDate,
    businessType: 'RENEWAL',
    businessCategory: old.business_category,
    oldPolicyId: old.id,
    generateInvoice: body.generateInvoice ?? true,
    assets,
    ...(old.cover_type !== null ? { coverType: old.cover_type } : {}),
    ...(old.group_id !== null ? { groupId: old.group_id } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...(old.fleet_discount_rate !== null ? { fleetDiscountRate: Number(old.fleet_discount_rate) } : {}),
    ...(schemeSumInsuredOf(old) !== undefined ? { sumInsured: schemeSumInsuredOf(old) } : {}),
  } as PolicyCreateRequest;
}
