import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { PolicyState } from '../../platform/db/schema.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { checkCurrency } from '../policies/issue.js';
import type { PolicyRow } from '../policies/view.js';

export type ClaimCreateRequest = components['schemas']['ClaimCreateRequest'];
export type StandardClaim = components['schemas']['ClaimCreate'];
type ThirdPartyLoss = components['schemas']['ThirdPartyLoss'];

/** A body with `claimType` is a micro-insurance claim (the contract's ClaimCreateRequest says so). */
export const isMicroInsuranceClaim = (body: ClaimCreateRequest): body is components['schemas']['MicroInsuranceClaimCreate'] =>
  'claimType' in body && body.claimType !== undefined;

/**
 * Micro-insurers pay benefits by type (withdrawals, cashback, death), not losses to insured
 * assets: their policies take micro-insurance claims only, and other insurers' policies standard ones.
 */
export function checkClaimShape(body: ClaimCreateRequest, policy: Pick<PolicyRow, 'policy_no' | 'insurer_type'>) {
  const micro = isMicroInsuranceClaim(body);
  if (micro && policy.insurer_type !== 'MICRO_INSURER') {
    throw badRequest(`body.claimType: policy ${policy.policy_no} is not with a micro-insurer; send a standard claim`, 'CLAIM_SHAPE_MISMATCH');
  }
  if (!micro && policy.insurer_type === 'MICRO_INSURER') {
    throw badRequest(`body.claimType is required: policy ${policy.policy_no} is with a micro-insurer, which takes micro-insurance claims only`,
      'CLAIM_SHAPE_MISMATCH');
  }
}

/**
 * States a policy can be claimed on: in force, or ended normally (a loss while in cover is still
 * owed after the end; the dates are checked apart). Unpaid, cancelled, declined and archived
 * policies cannot.
 */
export const CLAIMABLE_STATES: ReadonlySet<PolicyState> = new Set(['ACTIVE', 'EXPIRED', 'COMPLETE']);

export function assertClaimable(policy: Pick<PolicyRow, 'policy_no' | 'state'>) {
  if (!CLAIMABLE_STATES.has(policy.state)) {
    throw conflict(`Policy ${policy.policy_no} is ${policy.state}; claims are taken on ACTIVE policies, or EXPIRED and COMPLETE ones for a loss while in cover`,
      'POLICY_NOT_CLAIMABLE');
  }
}

/** The loss inside cover and not in the future; the insurer told on or after it (or after cover began) and not later than today. */
export function checkClaimDates(dateOfLoss: string | null, dateOfNotification: string, policy: Pick<PolicyRow, 'start_date' | 'end_date'>, today: string) {
  if (dateOfLoss !== null) {
    if (dateOfLoss > today) throw badRequest(`body.dateOfLoss must not be in the future (today is ${today})`);
    if (dateOfLoss < policy.start_date || dateOfLoss > policy.end_date) {
      throw badRequest(`body.dateOfLoss must be within the policy's cover (${policy.start_date} to ${policy.end_date})`);
    }
  }
  if (dateOfNotification > today) throw badRequest(`body.dateOfNotification must not be in the future (today is ${today})`);
  if (dateOfLoss !== null && dateOfNotification < dateOfLoss) throw badRequest('body.dateOfNotification must not be before body.dateOfLoss');
  if (dateOfLoss === null && dateOfNotification < policy.start_date) {
    throw badRequest(`body.dateOfNotification must not be before the policy's startDate (${policy.start_date})`);
  }
}

/** Each named asset one of the policy's, each once; answers them in the order sent. */
export async function checkClaimAssets(scope: TenantScope, policy: Pick<PolicyRow, 'id' | 'policy_no'>, assetIds: readonly string[]): Promise<string[]> {
  const owned = new Set((await scope.selectFrom('policy_assets').select('id').where('policy_id', '=', policy.id).execute())
    .map((row) => row.id.toLowerCase()));
  const seen = new Set<string>();
  return assetIds.map((id, index) => {
    const key = id.toLowerCase();
    if (seen.has(key)) throw badRequest(`body.assets[${index}] names asset ${id} a second time`);
    if (!owned.has(key)) throw badRequest(`body.assets[${index}]: ${id} is not an asset of policy ${policy.policy_no}`);
    seen.add(key);
    return key;
  });
}

/**
 * The claim's currency and rate: the policy's currency unless sent; the rate sent, else the
 * policy's for its own currency, 1 for the base currency, and required for any other. Then the
 * policies' rule: an ACTIVE currency, and 1 for the base currency.
 */
export async function claimCurrency(scope: TenantScope, body: ClaimCreateRequest, policy: Pick<PolicyRow, 'currency' | 'exchange_rate'>) {
  const currency = body.currency ?? policy.currency;
  let exchangeRate = body.exchangeRate;
  if (exchangeRate === undefined) {
    const base = await scope.db.selectFrom('currencies').select('code').where('is_default', '=', true).executeTakeFirst();
    if (currency === base?.code) exchangeRate = 1;
    else if (currency === policy.currency) exchangeRate = Number(policy.exchange_rate);
    else throw badRequest(`body.exchangeRate is required for ${currency}, which is neither the policy's currency (${policy.currency}) nor the base currency`);
  }
  await checkCurrency(scope, currency, exchangeRate);
  return { currency, exchangeRate };
}

/** A third party loss as stored: its money (repair estimate or compensation) apart, the rest as sent. */
export function thirdPartyLossRow(loss: ThirdPartyLoss) {
  const { type, ...rest } = loss;
  const { repairEstimate, compensationAmount, ...details } = rest as typeof rest & { repairEstimate?: number; compensationAmount?: number };
  const amount = repairEstimate ?? compensationAmount;
  return { type, amount: amount === undefined ? null : new Decimal(amount).toFixed(2), details: JSON.stringify(details) };
}
