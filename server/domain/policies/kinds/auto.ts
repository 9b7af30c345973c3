import { Decimal } from 'decimal.js';
import { badRequest } from '../../../platform/errors.js';
import { RatingError, type AssetRater, type RateLine, type Rates } from '../../rating/index.js';
import { fieldAt, inOrder, notAfterYear, withinTerm, type AssetRule } from './asset-rules.js';
import { defineKind } from './kind.js';

/**
 * AUTO, the motor (auto) policy: one vehicle an asset (MotorAsset), priced by the motor tariff,
 * with a fleet discount. The tariff: third-party basic premium by usage, own damage (or fire and
 * theft) at a rate of the vehicle's value, loadings for extra seats, engine size, age, extended
 * liability, third-party property damage above 5000 and excess buy-back, then the no-claim
 * discount on the own-damage part. Amounts are annual.
 */

type Usage = 'PRIVATE' | 'COMMERCIAL' | 'MOTOR_CYCLE';

/** Allowed no-claim discount rates (percent) by usage, and what each number of claim-free years earns. */
const NCD_RATES: Record<Usage, number[]> = {
  PRIVATE: [0, 25, 30, 35, 45, 50],
  COMMERCIAL: [0, 15, 20, 25],
  MOTOR_CYCLE: [0, 10],
};
/** The rate `years` claim-free years earn: one step up the usage's scale per year, capped at its top. */
const ncdEarned = (usage: Usage, years: number) => NCD_RATES[usage][Math.min(years, NCD_RATES[usage].length - 1)];

const STANDARD_SEATS: Record<Usage, number> = { PRIVATE: 5, COMMERCIAL: 5, MOTOR_CYCLE: 2 };
const DEFAULT_TPPD = 5000;

/** Engine-size loading (percent) when the asset gives none: the tariff's bands. */
function cubicCapacityBand(cc: number, usage: Usage): number {
  if (usage === 'MOTOR_CYCLE' || cc <= 1600) return 0;
  if (cc <= 2000) return 5;
  if (cc <= 3000) return 10;
  return 15;
}
/** Vehicle-age loading (percent) when the asset gives none. */
function ageBand(ageYears: number): number {
  if (ageYears <= 5) return 0;
  if (ageYears <= 10) return 5;
  return 10;
}

interface MotorAssetInput {
  coverage: string;
  usage: Usage;
  seats: number;
  cubicCapacity: number;
  sumInsured?: number;
  noClaimDiscountYears?: number;
  noClaimDiscountRate?: number;
  applyExcess?: boolean;
  thirdPartyPropertyDamage?: number;
  cubicCapacityRate?: number;
  oldAgeLoadingRate?: number;
  yearOfMake?: number;
}

const pick = (rates: Rates, key: string, fallback: number) => new Decimal(rates[key] ?? fallback);
const pct = (base: Decimal, rate: Decimal.Value) => base.mul(rate).div(100);

function rateMotorAsset(asset: MotorAssetInput, rates: Rates, index: number, currentYear: number): RateLine[] {
  const { usage, coverage } = asset;
  const lines: RateLine[] = [];
  const line = (code: string, label: string, amount: Decimal, rate: Decimal.Value | null = null) =>
    lines.push({ asset: index, code, label, rate: rate === null ? null : new Decimal(rate).toNumber(), amount });

  const tpBasic = usage === 'PRIVATE' ? pick(rates, 'thirdPartyBasicPremium', 0)
    : usage === 'COMMERCIAL' ? pick(rates, 'commercialThirdPartyBasicPremium', rates.thirdPartyBasicPremium ?? 0)
      : pick(rates, 'motorCycleThirdPartyBasicPremium', rates.thirdPartyBasicPremium ?? 0);
  line('THIRD_PARTY_BASIC', `Third-party basic premium (${usage.toLowerCase().replace('_', ' ')})`, tpBasic);
  if (coverage === 'EXTENDED_THIRD_PARTY_LIABILITY') {
    const rate = pick(rates, 'extendedThirdPartyLoading', 25);
    line('EXTENDED_LIABILITY', `Extended third-party liability at ${rate}% of the basic premium`, pct(tpBasic, rate), rate);
  }
  const extraSeats = Math.max(0, asset.seats - STANDARD_SEATS[usage]);
  if (extraSeats > 0) {
    const perSeat = pick(rates, 'extraSeatLoading', 0);
    line('EXTRA_SEATS', `${extraSeats} seat(s) above ${STANDARD_SEATS[usage]} at ${perSeat.toFixed(2)} each`, perSeat.mul(extraSeats));
  }
  const tppd = new Decimal(asset.thirdPartyPropertyDamage ?? DEFAULT_TPPD);
  if (tppd.gt(DEFAULT_TPPD)) {
    const rate = pick(rates, 'thirdPartyPropertyDamageRate', 1);
    line('TPPD_EXTENSION', `Property damage limit above ${DEFAULT_TPPD} at ${rate}%`, pct(tppd.minus(DEFAULT_TPPD), rate), rate);
  }

  // The part that depends on the vehicle's value: own damage (comprehensive) or fire and theft.
  const value = new Decimal(asset.sumInsured ?? 0);
  let damage = new Decimal(0);
  if (coverage === 'COMPREHENSIVE' || coverage === 'MOTORCYCLE_COMPREHENSIVE') {
    const key = usage === 'PRIVATE' ? 'privateComprehensiveRate' : usage === 'COMMERCIAL' ? 'commercialComprehensiveRate' : 'motorCycleComprehensiveRate';
    const rate = pick(rates, key, rates.privateComprehensiveRate ?? 0);
    damage = pct(value, rate);
    line('OWN_DAMAGE', `Own damage at ${rate}% of ${value.toFixed(2)}`, damage, rate);
  } else if (coverage === 'THIRD_PARTY_FIRE_AND_THEFT') {
    const rate = pick(rates, 'thirdPartyFireAndTheftRate', 0);
    damage = pct(value, rate);
    line('FIRE_AND_THEFT', `Fire and theft at ${rate}% of ${value.toFixed(2)}`, damage, rate);
  }
  if (damage.isZero()) return lines;

  let loaded = damage;
  const ccRate = asset.cubicCapacityRate ?? cubicCapacityBand(asset.cubicCapacity, usage);
  if (ccRate > 0) {
    const amount = pct(damage, ccRate);
    loaded = loaded.plus(amount);
    line('CUBIC_CAPACITY_LOADING', `Engine size ${asset.cubicCapacity} cc loading at ${ccRate}%`, amount, ccRate);
  }
  const age = asset.yearOfMake === undefined ? 0 : currentYear - asset.yearOfMake;
  const ageRate = asset.oldAgeLoadingRate ?? ageBand(age);
  if (ageRate > 0) {
    const amount = pct(damage, ageRate);
    loaded = loaded.plus(amount);
    line('AGE_LOADING', `Vehicle age loading at ${ageRate}%`, amount, ageRate);
  }
  if (asset.applyExcess === false) {
    const rate = pick(rates, 'excessBuyBackRate', 10);
    const amount = pct(damage, rate);
    loaded = loaded.plus(amount);
    line('EXCESS_BUY_BACK', `Excess buy-back at ${rate}% of own damage`, amount, rate);
  }
  const ncdRate = asset.noClaimDiscountRate ?? ncdEarned(usage, asset.noClaimDiscountYears ?? 0);
  if (ncdRate > 0) line('NO_CLAIM_DISCOUNT', `No-claim discount at ${ncdRate}%`, pct(loaded, ncdRate).neg(), ncdRate);
  return lines;
}

/** Third-party-only covers are priced without the vehicle's value; every other needs it. */
const rateVehicle: AssetRater = (asset, rates, index, { currentYear }) => {
  if (asset.coverage !== 'THIRD_PARTY_ONLY' && asset.coverage !== 'MOTORCYCLE_THIRD_PARTY' && asset.sumInsured === undefined) {
    throw new RatingError(index, 'sumInsured', 'is required to price this cover');
  }
  return rateMotorAsset(asset as unknown as MotorAssetInput, rates, index, currentYear);
};

/**
 * The years of a vehicle not after this one and in order; a no-claim discount rate no more than
 * the claim-free years earn; the excess applied and the property damage limit at the tariff's
 * 5000 unless sent; the vehicle's own cover dates within the policy's.
 */
const checkVehicle: AssetRule = (asset, at) => {
  notAfterYear(asset, at, ['yearOfMake', 'yearOfPurchase', 'yearOfRegistration']);
  inOrder(asset, at, 'yearOfMake', 'yearOfPurchase');
  inOrder(asset, at, 'yearOfMake', 'yearOfRegistration');
  const usage = asset.usage as Usage;
  if (typeof asset.noClaimDiscountRate === 'number' && typeof asset.noClaimDiscountYears === 'number') {
    const earned = ncdEarned(usage, asset.noClaimDiscountYears);
    if (asset.noClaimDiscountRate > earned) {
      throw badRequest(`${fieldAt(at, 'noClaimDiscountRate')} must not exceed ${earned}, what ${asset.noClaimDiscountYears} claim-free year(s) earn for ${usage} usage`);
    }
  }
  asset.applyExcess ??= true;
  asset.thirdPartyPropertyDamage ??= DEFAULT_TPPD;
  withinTerm(asset, at);
};

export const auto = defineKind({
  policyType: 'AUTO',
  name: 'Auto',
  ratingBasis: 'sumInsured',
  rateAsset: rateVehicle,
  checkAsset: checkVehicle,
  fleetDiscount: true,
});
