import { Decimal } from 'decimal.js';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import type { AssetRater, RateLine } from './types.js';

/**
 * The rating engine: a pure function from a product's `premiumRates`, an asset rater, the assets
 * and the term to the premium with its breakdown. What differs by policy type is the rater, which
 * each policy kind brings (server/domain/policies/kinds/); the rest (rounding, the fleet discount,
 * the term, the minimum premium, each asset's share) is the same for every kind. Policies, quotes
 * and cart checkout all price through it, so the same cover always costs the same.
 */

export type { AssetRater, RateLine, Rates } from './types.js';

/** An asset lacks what its rating needs; `field` is its path under the asset (e.g. `sumInsured`). */
export class RatingError extends Error {
  constructor(readonly assetIndex: number, readonly field: string, message: string) {
    super(message);
    this.name = 'RatingError';
  }
}

export interface RatingInput {
  /** Prices each asset: its policy kind's rater. */
  rateAsset: AssetRater;
  premiumRates: Record<string, number>;
  assets: Record<string, unknown>[];
  startDate: string;
  endDate: string;
  fleetDiscountRate?: number | null;
  /** The year "now" is in, for vehicle age. */
  currentYear: number;
}

export interface Rating {
  lines: RateLine[];
  annualPremium: Decimal;
  termDays: number;
  termFactor: Decimal;
  minimumPremium: Decimal;
  premium: Decimal;
  /** Each asset's share of `premium`; they add up to it exactly. */
  assetPremiums: Decimal[];
}

/**
 * The rater most kinds use: the product's `rate` (percent) of one asset field, the kind's rating
 * basis (400 naming the field when the asset has no number there).
 */
export function rateOnBasis(field: string): AssetRater {
  return (asset, rates, index) => {
    const basis = asset[field];
    if (typeof basis !== 'number') throw new RatingError(index, field, 'is required to price this cover');
    const rate = new Decimal(rates.rate ?? 0);
    return [{ asset: index, code: 'BASIC', label: `${rate}% of ${new Decimal(basis).toFixed(2)}`, rate: rate.toNumber(), amount: new Decimal(basis).mul(rate).div(100) }];
  };
}

const ROUND = Decimal.ROUND_HALF_UP;
const money = (value: Decimal) => value.toDecimalPlaces(2, ROUND);

/** Days of cover, both ends included; a year's cover (365 or 366 days) is one full annual premium. */
export function termOf(startDate: string, endDate: string) {
  const termDays = differenceInCalendarDays(parseISO(endDate), parseISO(startDate)) + 1;
  const termFactor = termDays === 365 || termDays === 366 ? new Decimal(1) : new Decimal(termDays).div(365).toDecimalPlaces(6, ROUND);
  return { termDays, termFactor };
}

export function ratePolicy(input: RatingInput): Rating {
  const rates = input.premiumRates;
  const lines: RateLine[] = [];
  input.assets.forEach((asset, index) => {
    lines.push(...input.rateAsset(asset, rates, index, { currentYear: input.currentYear }));
  });

  // Each line is rounded to the cent as shown, and the annual premium is the sum of the lines shown.
  for (const line of lines) line.amount = money(line.amount);
  const assetAnnual = input.assets.map((_, index) => lines.filter((l) => l.asset === index).reduce((sum, l) => sum.plus(l.amount), new Decimal(0)));
  let annual = assetAnnual.reduce((sum, amount) => sum.plus(amount), new Decimal(0));
  if (input.fleetDiscountRate) {
    const discount = money(annual.mul(input.fleetDiscountRate).div(100));
    lines.push({ asset: null, code: 'FLEET_DISCOUNT', label: `Fleet discount at ${input.fleetDiscountRate}%`, rate: input.fleetDiscountRate, amount: discount.neg() });
    annual = annual.minus(discount);
  }
  const { termDays, termFactor } = termOf(input.startDate, input.endDate);
  const minimumPremium = money(new Decimal(rates.minimumPremium ?? 0));
  const premium = Decimal.max(minimumPremium, money(annual.mul(termFactor)));
  return { lines, annualPremium: annual, termDays, termFactor, minimumPremium, premium, assetPremiums: shareOut(premium, assetAnnual) };
}

/**
 * Splits a premium over the assets in proportion to their annual amounts (equally when none has
 * one) by the largest remainder: whole cents, none negative, adding up to the premium exactly.
 */
export function shareOut(premium: Decimal, weights: Decimal[]): Decimal[] {
  const positive = weights.map((w) => Decimal.max(w, 0));
  const total = positive.reduce((sum, w) => sum.plus(w), new Decimal(0));
  const basis = total.isZero() ? positive.map(() => new Decimal(1)) : positive;
  const basisTotal = total.isZero() ? new Decimal(weights.length) : total;
  const cents = premium.mul(100);
  const exact = basis.map((w) => cents.mul(w).div(basisTotal));
  const whole = exact.map((e) => e.floor());
  const left = cents.minus(whole.reduce((sum, c) => sum.plus(c), new Decimal(0))).toNumber();
  const byRemainder = exact.map((e, index) => ({ index, remainder: e.minus(whole[index]) }))
    .sort((a, b) => b.remainder.comparedTo(a.remainder) || a.index - b.index);
  for (const { index } of byRemainder.slice(0, left)) whole[index] = whole[index].plus(1);
  return whole.map((c) => c.div(100));
}
