import { checkAgainstSchema } from '../../platform/validation.js';
import { breakdownOf, pricePolicy, setPremium, sumInsuredOf } from './pricing.js';
import { checkAssets } from './kinds/index.js';
import type { Asset } from './rules.js';
import { POLICY_TYPES } from './types-catalogue.js';
import type { Today } from '../../platform/clock.js';

/** Checks assets sent without their type's schema around them (PATCH, renewal) against it. */
export function checkAssetShapes(policyType: string, assets: unknown[], root = 'body') {
  const { assetSchema } = POLICY_TYPES[policyType as keyof typeof POLICY_TYPES];
  assets.forEach((asset, index) => checkAgainstSchema(assetSchema, asset, `${root}.assets[${index}]`));
}

/** What a policy covers and for how long: everything its price depends on. */
export interface Cover {
  policyType: string;
  premiumRates: Record<string, number>;
  currency: string;
  startDate: string;
  endDate: string;
  fleetDiscountRate: number | null;
  schemeSumInsured?: number;
  /** The assets as sent (prices, if any, are the caller's quotes). */
  assets: Asset[];
  /** The policy premium the caller quoted, if it did: it must be the rated one. */
  quotedPremium?: number;
  /** The policy premium staff set, and their latitude (percent either way of the rated one). */
  staffPremium?: { premium: number; latitude: number };
}

/**
 * Checks a cover's assets against the rules the schema cannot state, prices it, and answers the
 * assets as stored with the policy columns that follow from the price.
 */
export function priceCover(cover: Cover, today: Today, root = 'body') {
  const assets = checkAssets(cover.policyType, cover.assets, cover, today, root);
  const rated = pricePolicy({
    ...cover, assets, currentYear: today.year, root,
    quoted: { premium: cover.quotedPremium, assetPremiums: cover.assets.map((asset) => asset.premium as number | undefined) },
  });
  const { staffPremium } = cover;
  const rating = staffPremium ? setPremium(rated, staffPremium.premium, staffPremium.latitude, cover.currency, root) : rated;
  return {
    assets,
    rating,
    columns: {
      premium: rating.premium.toFixed(2),
      premium_breakdown: JSON.stringify(breakdownOf(rating, cover.currency)),
      sum_insured: sumInsuredOf(cover.schemeSumInsured, assets),
    },
  };
}
