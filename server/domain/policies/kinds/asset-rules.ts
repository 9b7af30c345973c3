import { badRequest } from '../../../platform/errors.js';

/**
 * The pieces kinds' asset rules are made of: the rules JSON Schema cannot say (they depend on
 * today, or compare two fields), with the same 400 shape as schema validation:
 * `body.assets[2].yearOfMake must not be later than 2026`.
 */

export type Asset = Record<string, unknown>;

/** Where an asset is and what it is checked against. */
export interface AssetAt {
  index: number;
  /** `body`, or `cart[<id>]` for a cart item. */
  root: string;
  today: { date: string; year: number };
  /** The policy's cover. */
  term: { startDate: string; endDate: string };
}

/** Checks one asset, throwing a 400; may fill the asset's defaults (it is the stored copy). */
export type AssetRule = (asset: Asset, at: AssetAt) => void;

/** `body.assets[2].yearOfMake` */
export const fieldAt = (at: Pick<AssetAt, 'index' | 'root'>, field: string) => `${at.root}.assets[${at.index}].${field}`;

const isNumber = (value: unknown): value is number => typeof value === 'number';
const isDate = (value: unknown): value is string => typeof value === 'string';

/** Years (`yearOfMake` ...) not after this one. */
export function notAfterYear(asset: Asset, at: AssetAt, fields: string[]) {
  for (const field of fields) {
    const year = asset[field];
    if (isNumber(year) && year > at.today.year) throw badRequest(`${fieldAt(at, field)} must not be later than ${at.today.year}`);
  }
}

/** Dates before today (or today too, when `inclusive`). */
export function inThePast(asset: Asset, at: AssetAt, fields: string[], inclusive = false) {
  for (const field of fields) {
    const value = asset[field];
    if (isDate(value) && (inclusive ? value > at.today.date : value >= at.today.date)) {
      throw badRequest(`${fieldAt(at, field)} must be ${inclusive ? 'today or earlier' : 'in the past'}`);
    }
  }
}

/** Two dates or years of the asset, the later not before the earlier. */
export function inOrder(asset: Asset, at: AssetAt, earlier: string, later: string) {
  const a = asset[earlier];
  const b = asset[later];
  if ((isDate(a) && isDate(b)) || (isNumber(a) && isNumber(b))) {
    if (b < a) throw badRequest(`${fieldAt(at, later)} must not be before ${fieldAt(at, earlier)}`);
  }
}

/** An asset's own cover dates default to the policy's and must lie within them. */
export function withinTerm(asset: Asset, at: AssetAt) {
  const { term } = at;
  asset.startDate ??= term.startDate;
  asset.endDate ??= term.endDate;
  const start = asset.startDate as string;
  const end = asset.endDate as string;
  if (start < term.startDate || start > term.endDate) throw badRequest(`${fieldAt(at, 'startDate')} must be within the policy's cover (${term.startDate} to ${term.endDate})`);
  if (end < start || end > term.endDate) throw badRequest(`${fieldAt(at, 'endDate')} must be on or after its startDate and not after the policy's endDate (${term.endDate})`);
}
