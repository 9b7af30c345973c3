import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import type { EventServices } from '../events/catalogue.js';
import { raiseInvoice, rebillPolicy } from '../money/billing.js';
import { movePolicy, type StateActor } from '../states/policy.js';
import { writeAssets } from './issue.js';
import { FLEET_DISCOUNT_TYPES, kindOf } from './kinds/index.js';
import { checkAssetShapes, priceCover } from './reprice.js';
import { checkTerm, type Asset } from './rules.js';
import { schemeSumInsuredOf } from './types-catalogue.js';
import { assetsToReprice, companyPolicy, loadPolicy, ownPolicyRow, type Policy, type PolicyRow } from './view.js';
import { todayOf, type Today } from '../../platform/clock.js';
import { emit } from '../events/catalogue.js';
import { changedFields } from '../events/changes.js';

export type PolicyUpdate = components['schemas']['PolicyUpdate'];

/** States whose cover may still change (nothing has been bought yet). */
const OPEN_STATES = new Set(['DRAFT', 'PROCESSING']);
/** States in which not even the notes change. */
const CLOSED_STATES = new Set(['CANCELLED', 'ARCHIVED']);
const COVER_FIELDS = ['startDate', 'endDate', 'assets', 'coverType', 'fleetDiscountRate'] as const;

/**
 * Changes a client's policy as its state allows. Cover changes price it again and move the unpaid
 * invoice to the new premium; `generateInvoice: true` raises a draft's invoice. One transaction,
 * with the policy row locked, so a payment cannot slip in between the check and the change; in it
 * `policy.updated` with the fields that changed (none: no event), before the draft's move to PROCESSING.
 */
export async function changePolicy(ctx: Pick<HandlerContext, 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>, clientId: string, policyId: string,
  body: PolicyUpdate, actor: StateActor): Promise<Policy> {
  const now = ctx.clock.now();
  const today = todayOf(now);
  const coverChanges = COVER_FIELDS.filter((field) => body[field] !== undefined).length > 0;

  await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, policyId, clientId, { lock: true });
    assertChangeable(policy, body, coverChanges);
    const before = await companyPolicy(scope, policy.id);
    const changes: Record<string, unknown> = { updated_at: now, ...detailChanges(body) };
    let premium = new Decimal(policy.premium);
    if (coverChanges) {
      const cover = await changeCover(scope, policy, body, today, now);
      Object.assign(changes, cover.columns);
      premium = cover.premium;
    }
    await scope.updateTable('policies').set(changes).where('id', '=', policy.id).execute();
    const previous = changedFields(before, await companyPolicy(scope, policy.id));
    if (previous) await emit(ctx, scope, actor, { type: 'policy.updated', object: { type: 'policy', id: policy.id }, data: {} }, now, { previous });
    if (body.generateInvoice && policy.state === 'DRAFT') await invoiceDraft(ctx, scope, { clientId, policy, premium, actor, today, now });
  });
  return loadPolicy(ctx.scope, policyId, clientId);
}

/** What a policy's state (and type) lets change: notes until it is closed, cover and invoicing only before anything is paid. */
function assertChangeable(policy: PolicyRow, body: PolicyUpdate, coverChanges: boolean) {
  const no = policy.policy_no;
  if (CLOSED_STATES.has(policy.state)) throw conflict(`Policy ${no} is ${policy.state} and can no longer change`, 'POLICY_LOCKED');
  if (coverChanges || body.generateInvoice) {
    if (!OPEN_STATES.has(policy.state)) {
      throw conflict(`Policy ${no} is ${policy.state}: only notes, description, groupId and additionalInformation can change`, 'POLICY_LOCKED');
    }
    if (policy.is_paid) throw conflict(`The cover of policy ${no} cannot change: a payment has been made. Contact customer support.`, 'POLICY_LOCKED');
  }
  if (body.fleetDiscountRate != null && !kindOf(policy.policy_type).fleetDiscount) {
    throw conflict(`body.fleetDiscountRate applies to ${FLEET_DISCOUNT_TYPES.join(', ')} policies only; policy ${no} is ${policy.policy_type}`, 'NOT_APPLICABLE');
  }
}

/** The columns of the fields that never touch the price. */
function detailChanges(body: PolicyUpdate): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (body.notes !== undefined) changes.notes = body.notes;
  if (body.description !== undefined) changes.description = body.description;
  if (body.groupId !== undefined) changes.group_id = body.groupId;
  if (body.additionalInformation !== undefined) changes.additional_information = JSON.stringify(body.additionalInformation);
  return changes;
}

/**
 * A new cover priced: its assets written and the unpaid invoice moved to the new premium. Answers
 * the policy columns that follow, and the premium.
 */
async function changeCover(scope: TransactionScope, policy: PolicyRow, body: PolicyUpdate, today: Today, now: Date) {
  const startDate = body.startDate ?? policy.start_date;
  const endDate = body.endDate ?? policy.end_date;
  if (body.startDate !== undefined || body.endDate !== undefined) checkTerm(startDate, endDate, today);
  if (body.assets) checkAssetShapes(policy.policy_type, body.assets);
  // Kept assets lose their stored ids and prices: they are priced again as sent, and their
  // dates that were the policy's (the default) move with the policy's.
  const assets = (body.assets as Asset[] | undefined)
    ?? (await assetsToReprice(scope, policy.id)).map((asset) => followTerm(asset, { startDate: policy.start_date, endDate: policy.end_date }, { startDate, endDate }));
  const fleetDiscountRate = body.fleetDiscountRate !== undefined ? body.fleetDiscountRate : policy.fleet_discount_rate === null ? null : Number(policy.fleet_discount_rate);
  const priced = priceCover({
    policyType: policy.policy_type, premiumRates: policy.product_premium_rates, currency: policy.currency, startDate, endDate,
    fleetDiscountRate, schemeSumInsured: schemeSumInsuredOf(policy), assets,
  }, today);
  const columns: Record<string, unknown> = { ...priced.columns, start_date: startDate, end_date: endDate, fleet_discount_rate: fleetDiscountRate };
  if (body.coverType !== undefined) columns.cover_type = body.coverType;
  await writeAssets(scope, policy.id, priced.assets, priced.rating.assetPremiums);
  await rebillPolicy(scope, policy.id, priced.rating.premium, now);
  return { columns, premium: priced.rating.premium };
}

/** A draft to invoice: whose, the policy, its premium, who asked, and when. */
interface DraftToInvoice {
  clientId: string;
  policy: Pick<PolicyRow, 'id' | 'policy_no' | 'currency' | 'exchange_rate'>;
  premium: Decimal;
  actor: StateActor;
  today: Today;
  now: Date;
  notes?: string;
  /** What the invoice says it is for, when not the premium's usual words. */
  description?: string;
}

/**
 * A draft asked for its invoice (by its client's `generateInvoice`, or staff moving it to
 * PROCESSING, or raising its invoice): it is raised (by the staff member, when one asked), and
 * the policy moves to PROCESSING. Answers the invoice.
 */
export async function invoiceDraft(services: EventServices, scope: TransactionScope, { clientId, policy, premium, actor, today, now, notes = 'Invoice raised', description }: DraftToInvoice) {
  await scope.updateTable('policies').set({ generate_invoice: true }).where('id', '=', policy.id).execute();
  const invoice = await raiseInvoice(services, scope, {
    clientId, currency: policy.currency, exchangeRate: policy.exchange_rate, policies: [{ id: policy.id, policyNo: policy.policy_no, premium }],
    createdByStaffId: actor.by === 'staff' ? actor.id : null, description, actor,
  }, today.date, now);
  await movePolicy(services, scope, { id: policy.id, policyNo: policy.policy_no, state: 'DRAFT' }, 'PROCESSING', actor, now, notes);
  return invoice;
}

interface Term { startDate: string; endDate: string }

/**
 * A kept asset's dates when the policy's change: a date that was the policy's own (an asset sent
 * without dates is stored with the policy's) follows the new one; a date of the asset's own stays,
 * and must still fall within the new cover.
 */
function followTerm(asset: Asset, from: Term, to: Term): Asset {
  return {
    ...asset,
    ...(asset.startDate === from.startDate ? { startDate: to.startDate } : {}),
    ...(asset.endDate === from.endDate ? { endDate: to.endDate } : {}),
  };
}
