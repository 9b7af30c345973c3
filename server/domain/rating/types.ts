import type { Decimal } from 'decimal.js';

/** One line of a premium calculation; `asset` is the asset's index, or null for a policy-wide line. */
export interface RateLine {
  asset: number | null;
  code: string;
  label: string;
  rate: number | null;
  amount: Decimal;
}

/** A product's `premiumRates`: the figures a tariff reads, by name. */
export type Rates = Record<string, number>;

/**
 * Prices one asset: its lines (annual amounts, before rounding), or a RatingError when the asset
 * lacks what its price needs. Each policy kind has one (server/domain/policies/kinds/).
 */
export type AssetRater = (asset: Record<string, unknown>, rates: Rates, index: number, context: { currentYear: number }) => RateLine[];
