import { Decimal } from 'decimal.js';
import { conflict } from '../../server/platform/errors.js';
import { raiseInvoice, rebillPolicy } from '../../server/domain/money/billing.js';
import { movePolicy } from '../../server/domain/states/policy.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { writeAssets } from '../../server/domain/policies/issue.js';
import { checkAssetShapes, priceCover } from '../../server/domain/policies/reprice.js';
import { checkTerm, todayOf, type Asset } from '../../server/domain/policies/rules.js';
import { schemeSumInsuredOf } from '../../server/domain/policies/types-catalogue.js';
import { assetsToReprice, loadPolicy, ownPolicyRow } from '../../server/domain/policies/view.js';

/** States whose cover may still change (nothing has been bought yet). */
const OPEN_STATES = new Set(['DRAFT', 'PROCESSING']);
/** States in which not even the notes change. */
const CLOSED_STATES = new Set(['CANCELLED', 'ARCHIVED']);
const COVER_FIELDS = ['startDate', 'endDate', 'assets', 'coverType', 'fleetDiscountRate'] as const;

/**
 * Changes a policy as its state allows. Cover changes price it again and move the unpaid invoice
 * to the new premium; `generateInvoice: true` raises a draft's invoice. One transaction, with the
 * policy row locked, so a payment cannot slip in between the check and the change.
 */
export const updatePolicy: Handler<'updatePolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  const today = todayOf(now);
  const coverChanges = COVER_FIELDS.filter((field) => body[field] !== undefined);

  await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, req.params.id, owner, { lock: true });
    const no = policy.policy_no;
    if (CLOSED_STATES.has(policy.state)) throw conflict(`Policy ${no} is ${policy.state} and can no longer change`, 'POLICY_LOCKED');
    if (coverChanges.length > 0 || body.generateInvoice) {
      if (!OPEN_STATES.has(policy.state)) {
        throw conflict(`Policy ${no} is ${policy.state}: only notes, description, groupId and additionalInformation can change`, 'POLICY_LOCKED');
      }
      if (policy.is_paid) throw conflict(`The cover of policy ${no} cannot change: a payment has been made. Contact customer support.`, 'POLICY_LOCKED');
    }
    if (body.fleetDiscountRate != null && policy.policy_type !== 'AUTO') {
      throw conflict(`body.fleetDiscountRate applies to AUTO policies only; policy ${no} is ${policy.policy_type}`, 'NOT_APPLICABLE');
    }

    const changes: Record<string, unknown> = { updated_at: now };
    if (body.notes !== undefined) changes.notes = body.notes;
    if (body.description !== undefined) changes.description = body.description;
    if (body.groupId !== undefined) changes.group_id = body.groupId;
    if (body.additionalInformation !== undefined) changes.additional_information = JSON.stringify(body.additionalInformation);

    let premium = new Decimal(policy.premium);
    if (coverChanges.length > 0) {
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
      Object.assign(changes, priced.columns, { start_date: startDate, end_date: endDate, fleet_discount_rate: fleetDiscountRate });
      if (body.coverType !== undefined) changes.cover_type = body.coverType;
      await writeAssets(scope, policy.id, priced.assets, priced.rating.assetPremiums);
      premium = priced.rating.premium;
      await rebillPolicy(scope, policy.id, premium, now);
    }
    await scope.updateTable('policies').set(changes).where('id', '=', policy.id).execute();
    if (body.generateInvoice && policy.state === 'DRAFT') {
      await scope.updateTable('policies').set({ generate_invoice: true }).where('id', '=', policy.id).execute();
      await raiseInvoice(scope, { clientId: owner, currency: policy.currency, exchangeRate: policy.exchange_rate, policies: [{ id: policy.id, policyNo: no, premium }] }, today.date, now);
      await movePolicy(scope, { id: policy.id, policyNo: no, state: 'DRAFT' }, 'PROCESSING', { by: 'client', id: owner }, now, 'Invoice raised');
    }
  });
  return { data: await loadPolicy(ctx.scope, req.params.id, owner) };
};

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
