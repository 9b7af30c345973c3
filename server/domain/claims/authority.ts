import { Decimal } from 'decimal.js';
import type { StaffActor } from '../../platform/context.js';
import { ApiError, forbidden } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { POLICY_TYPES } from '../policies/types-catalogue.js';
import { settlementAuthority } from '../staff/settlement-authority.js';
import type { ClaimRow } from './view.js';

/**
 * Claims authority (issue 27): nobody assesses or settles a claim above the sum insured; nobody
 * settles above their position's limit; above the four-eyes threshold the settler is not the
 * reviewer whose adjusted amount the settlement pays. All in decimals, to the cent.
 */

type Claim = Pick<ClaimRow, 'id' | 'claim_no' | 'policy_id' | 'policy_no' | 'policy_type' | 'currency' | 'exchange_rate'>;
const money = (value: Decimal) => value.toFixed(2);

/**
 * The most a claim may be assessed or settled for, in the claim's currency: the sum insured of
 * the claimed assets where the policy's assets carry their own (every asset named has one), else
 * the policy's (the scheme's own, or its assets' total). Null when the cover has no sum insured
 * (motor third party, benefits): then only the other limits apply.
 */
export async function sumInsuredCap(scope: TenantScope, claim: Claim): Promise<{ cap: Decimal; of: string } | null> {
  const policy = await scope.selectFrom('policies').select(['sum_insured', 'currency', 'exchange_rate'])
    .where('id', '=', claim.policy_id).executeTakeFirstOrThrow();
  let sumInsured: Decimal | null = null;
  let of = `policy ${claim.policy_no}`;
  if (!POLICY_TYPES[claim.policy_type as keyof typeof POLICY_TYPES]?.schemeSumInsured) {
    const assets = await scope.selectFrom('claim_assets')
      .innerJoin('policy_assets', (join) => join.onRef('policy_assets.id', '=', 'claim_assets.policy_asset_id')
        .onRef('policy_assets.tenant_id', '=', 'claim_assets.tenant_id'))
      .select('policy_assets.sum_insured').where('claim_assets.claim_id', '=', claim.id).execute();
    if (assets.length > 0 && assets.every((asset) => asset.sum_insured !== null)) {
      sumInsured = assets.reduce((sum, asset) => sum.plus(asset.sum_insured!), new Decimal(0));
      of = `the claimed asset${assets.length > 1 ? 's' : ''} of policy ${claim.policy_no}`;
    }
  }
  if (sumInsured === null && policy.sum_insured !== null) sumInsured = new Decimal(policy.sum_insured);
  if (sumInsured === null) return null;
  // In the claim's currency: through the base currency when the claim's differs from the policy's.
  const cap = claim.currency === policy.currency ? sumInsured
    : sumInsured.mul(policy.exchange_rate).div(claim.exchange_rate).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  return { cap, of };
}

/** An amount (a review's adjusted amount or a settlement) at most the sum insured: 422 ABOVE_SUM_INSURED naming it otherwise. */
export async function assertWithinSumInsured(scope: TenantScope, claim: Claim, amount: Decimal, field: string) {
  const limit = await sumInsuredCap(scope, claim);
  if (limit && amount.greaterThan(limit.cap)) {
    throw new ApiError(422, 'ABOVE_SUM_INSURED', `${field} ${money(amount)} is above the sum insured of ${limit.of}, ${money(limit.cap)} ${claim.currency}`);
  }
}

/**
 * The settler's authority: the amount (in the base currency, at the claim's exchange rate) within
 * the company's limit for the settler's position (403 ABOVE_SETTLEMENT_AUTHORITY), and above the
 * four-eyes threshold not settled by the reviewer whose adjusted amount it pays (403 SETTLER_IS_REVIEWER).
 */
export async function assertSettlementAuthority(scope: TenantScope, actor: Pick<StaffActor, 'staffId' | 'position'>, claim: Claim,
  amount: Decimal, reviewerId: string | null) {
  const authority = await settlementAuthority(scope);
  const inBase = amount.mul(claim.exchange_rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const shown = `body.amount ${money(inBase)} ${authority.currency}`;
  const limit = authority.limits[actor.position];
  if (limit !== null && inBase.greaterThan(limit)) {
    throw forbidden(`${shown} is above your settlement limit as ${actor.position}, ${money(limit)} ${authority.currency}; `
      + `a staff member whose limit covers it must settle claim ${claim.claim_no}`, 'ABOVE_SETTLEMENT_AUTHORITY');
  }
  if (reviewerId === actor.staffId && inBase.greaterThan(authority.fourEyesThreshold)) {
    throw forbidden(`${shown} is above the four-eyes threshold of ${money(authority.fourEyesThreshold)} ${authority.currency} and you gave the `
      + `adjusted amount of claim ${claim.claim_no} in your review; another supervisor must settle it`, 'SETTLER_IS_REVIEWER');
  }
}
