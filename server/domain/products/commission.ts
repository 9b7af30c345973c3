import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import { badRequest } from '../../platform/errors.js';
import type { CommissionRow } from '../../platform/db/schema.js';

type CommissionInput = components['schemas']['CommissionInput'];

/** The three commissions a product carries, by their field names in the API. */
export const COMMISSION_FIELDS = ['standardCommission', 'overriderCommission', 'otherCommission'] as const;
export type CommissionField = typeof COMMISSION_FIELDS[number];

/**
 * A commission as the API sent it, checked with exact decimals (never binary floats): a PERCENTAGE
 * from 0 to 100, a FEE an amount of 0 or more, each with at most two decimal places; null for none.
 * Answers what the column keeps, or 400 naming the field.
 */
export function commissionOf(input: CommissionInput | null, field: string): CommissionRow | null {
  if (input === null) return null;
  // The number as JSON wrote it: 12.345 has three places however a float would round it.
  const value = new Decimal(String(input.value));
  if (value.isNegative()) throw badRequest(`${field}.value must be >= 0`);
  if (value.decimalPlaces() > 2) throw badRequest(`${field}.value must have at most two decimal places`);
  if (input.type === 'PERCENTAGE' && value.greaterThan(100)) throw badRequest(`${field}.value must be from 0 to 100 for a PERCENTAGE commission`);
  return { type: input.type, value: value.toNumber() };
}

/** The JSON a commission column is written with (none is JSON `null`, as the seed writes it). */
export const commissionColumn = (row: CommissionRow | null): string => JSON.stringify(row === null ? null : { value: row.value, type: row.type });
