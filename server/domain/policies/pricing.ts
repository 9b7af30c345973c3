import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { ApiError, badRequest } from '../../platform/errors.js';
import { RatingError, shareOut, type Rating } from '../rating/index.js';
import { rateKind } from './kinds/index.js';
import type { Asset } from './rules.js';

type PremiumBreakdown = components['schemas']['PremiumBreakdown'];

export interface PricingInput {
  policyType: string;
  premiumRates: Record<string, number>;
  currency: string;
  startDate: string;
  endDate: string;
  fleetDiscountRate?: number | null;
  currentYear: number;
  /** The assets as checked (without prices). */
  assets: Asset[];
  /** What the caller said the prices are, if it did: they must be the server's. */
  quoted?: { premium?: number; assetPremiums?: (number | undefined)[] };
  root?: string;
}

const REFUSE = (where: string, price: Decimal, currency: string) => new ApiError(422, 'PREMIUM_MISMATCH',
  `${where} must be ${price.toFixed(2)} ${currency}, the price of this cover (leave premium out to accept it)`);

/**
 * Prices a policy through the rating engine with its kind's rater. A client never sets its own
 * price: a premium it sends (for the policy or an asset) must equal the engine's to the cent, else
 * 422 with the price.
 */
export function pricePolicy(input: PricingInput): Rating {
  const root = input.root ?? 'body';
  let rating: Rating;
  try {
    rating = rateKind(input);
  } catch (error) {
    if (error instanceof RatingError) throw badRequest(`${root}.assets[${error.assetIndex}].${error.field} ${error.message}`);
    throw error;
  }
  const quoted = input.quoted;
  if (quoted?.premium !== undefined && !rating.premium.eq(quoted.premium)) throw REFUSE(`${root}.premium`, rating.premium, input.currency);
  quoted?.assetPremiums?.forEach((price, index) => {
    if (price !== undefined && !rating.assetPremiums[index].eq(price)) throw REFUSE(`${root}.assets[${index}].premium`, rating.assetPremiums[index], input.currency);
  });
  return rating;
}

/** A rating whose premium staff may have set: `ratedPremium` is then the engine's. */
export interface SetRating extends Rating { ratedPremium?: Decimal }

/**
 * The premium staff set when selling, within their latitude (percent of the rated premium, either
 * way): it replaces the rated one, its asset shares follow it, and the rated one is kept. A
 * latitude of 0 allows the rated price only, as for a client.
 */
export function setPremium(rating: Rating, premium: number, latitude: number, currency: string, root = 'body'): SetRating {
  const rated = rating.premium;
  const wanted = new Decimal(premium);
  if (wanted.decimalPlaces() > 2) throw badRequest(`${root}.premium must have at most 2 decimal places`);
  if (wanted.eq(rated)) return rating;
  if (latitude <= 0) {
    throw new ApiError(422, 'PREMIUM_MISMATCH',
      `${root}.premium must be ${rated.toFixed(2)} ${currency}, the price of this cover (you have no premium latitude; leave premium out to accept it)`);
  }
  const lowest = rated.mul(100 - latitude).div(100).toDecimalPlaces(2, Decimal.ROUND_UP);
  const highest = rated.mul(100 + latitude).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  if (wanted.lt(lowest) || wanted.gt(highest)) {
    throw new ApiError(422, 'PREMIUM_OUT_OF_LATITUDE',
      `${root}.premium must be between ${lowest.toFixed(2)} and ${highest.toFixed(2)} ${currency}: ${latitude}% either way of the rated ${rated.toFixed(2)} (your latitude)`);
  }
  return { ...rating, premium: wanted, assetPremiums: shareOut(wanted, rating.assetPremiums), ratedPremium: rated };
}

/** The breakdown as the API shows it. */
export function breakdownOf(rating: SetRating, currency: string): PremiumBreakdown {
  return {
    currency,
    lines: rating.lines.map((line) => ({ ...line, amount: line.amount.toNumber() })),
    annualPremium: rating.annualPremium.toNumber(),
    termDays: rating.termDays,
    termFactor: rating.termFactor.toNumber(),
    minimumPremium: rating.minimumPremium.toNumber(),
    premium: rating.premium.toNumber(),
    ...(rating.ratedPremium ? { ratedPremium: rating.ratedPremium.toNumber() } : {}),
  };
}

/** The policy's sum insured: the scheme's own where the type has one, else the assets' total. */
export function sumInsuredOf(schemeSumInsured: number | undefined, assets: Asset[]): string | null {
  if (schemeSumInsured !== undefined) return new Decimal(schemeSumInsured).toFixed(2);
  const amounts = assets.map((asset) => asset.sumInsured).filter((value): value is number => typeof value === 'number');
  return amounts.length === 0 ? null : amounts.reduce((sum, value) => sum.plus(value), new Decimal(0)).toFixed(2);
}
