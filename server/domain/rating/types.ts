import type { Decimal } from 'decimal.js';

/** One line of a premium calculation; `asset` is the asset's index, or null for a policy-wide line. */
export interface RateLine {
  asset: number | null;
  code: string;
  label: string;
  rate: number | null;
  amount: Decimal;
}
