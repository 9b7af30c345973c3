import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { StaffPosition } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { POSITIONS } from './permissions.js';
import { staffReferences } from './names.js';

/**
 * Claims authority, held as data beside the permission table (which says who may settle at all:
 * heads of department and above): how much a staff member of each position may settle one claim
 * for, and the amount above which the settler must not be the reviewer whose adjusted amount the
 * settlement pays (four eyes). Amounts are in the company's base currency.
 *
 * The defaults follow the usual delegated authority of an insurer's claims function: an officer
 * assesses but settles nothing; a head of department settles the routine claims of their
 * department; a branch manager the larger ones of the branch; executive managers without limit
 * (still capped by the sum insured, and by four eyes above the threshold). Each company may set
 * its own, never above these (`settlement_controls`, `PUT /staff/settlement-limits`).
 */
export const DEFAULT_SETTLEMENT_LIMITS: Record<StaffPosition, Decimal | null> = {
  LEVEL_OFFICER: new Decimal(0),
  HEAD_OF_DEPARTMENT: new Decimal(50_000),
  BRANCH_MANAGER: new Decimal(200_000),
  EXECUTIVE_MANAGER: null,
};
/** Above this (base currency), the settler must not be the reviewer. */
export const DEFAULT_FOUR_EYES_THRESHOLD = new Decimal(10_000);

export interface SettlementAuthority {
  currency: string;
  limits: Record<StaffPosition, Decimal | null>;
  fourEyesThreshold: Decimal;
  updatedAt: Date | null;
  updatedBy: components['schemas']['StaffReference'] | null;
  reason: string | null;
}
type Update = components['schemas']['SettlementAuthorityUpdate'];

const money = (value: Decimal) => value.toFixed(2);

/** The base currency the amounts are in (the platform's default currency). */
export async function baseCurrency(scope: TenantScope): Promise<string> {
  const base = await scope.db.selectFrom('currencies').select('code').where('is_default', '=', true).executeTakeFirst();
  return base?.code ?? 'GHS';
}

/** The authority in force in the company: its own figures where set, else the defaults. */
export async function settlementAuthority(scope: TenantScope): Promise<SettlementAuthority> {
  const row = await scope.selectFrom('settlement_controls').select(['limits', 'four_eyes_threshold', 'updated_at', 'updated_by_staff_id', 'reason']).executeTakeFirst();
  const own = row?.limits ?? {};
  const limits = Object.fromEntries(POSITIONS.map((position) => {
    const set = own[position];
    return [position, set === undefined || set === null ? DEFAULT_SETTLEMENT_LIMITS[position] : new Decimal(set)];
  })) as Record<StaffPosition, Decimal | null>;
  const fourEyesThreshold = row?.four_eyes_threshold == null ? DEFAULT_FOUR_EYES_THRESHOLD : new Decimal(row.four_eyes_threshold);
  const updatedBy = row?.updated_by_staff_id ? (await staffReferences(scope, [row.updated_by_staff_id])).get(row.updated_by_staff_id) ?? null : null;
  return { currency: await baseCurrency(scope), limits, fourEyesThreshold, updatedAt: row?.updated_at ?? null, updatedBy, reason: row?.reason ?? null };
}

/** The authority as the API answers it, each figure beside its default. */
export function toSettlementAuthorityView(authority: SettlementAuthority): components['schemas']['SettlementAuthority'] {
  const num = (value: Decimal | null) => (value === null ? null : value.toNumber());
  return {
    currency: authority.currency,
    limits: POSITIONS.map((position) => ({ position, limit: num(authority.limits[position]), defaultLimit: num(DEFAULT_SETTLEMENT_LIMITS[position]) })),
    fourEyesThreshold: authority.fourEyesThreshold.toNumber(),
    defaultFourEyesThreshold: DEFAULT_FOUR_EYES_THRESHOLD.toNumber(),
    updatedAt: authority.updatedAt === null ? null : new Date(authority.updatedAt).toISOString(),
    updatedBy: authority.updatedBy,
    reason: authority.reason,
  };
}

/** A company figure at most its default (null: no default limit); 422 naming the field otherwise. */
function withinDefault(field: string, value: number, fallback: Decimal | null, what: string, currency: string): string {
  const figure = new Decimal(value).toDecimalPlaces(2);
  if (fallback !== null && figure.greaterThan(fallback)) {
    throw new ApiError(422, 'SETTLEMENT_LIMIT_ABOVE_DEFAULT', `${field} ${money(figure)} is above the default ${what}, ${money(fallback)} ${currency}`);
  }
  return money(figure);
}

/**
 * An executive manager sets the company's own figures (each within its default; null restores the
 * default; figures not sent stay), in one statement under the row's key.
 */
export async function setSettlementAuthority(scope: TenantScope, staffId: string, body: Update, now: Date): Promise<SettlementAuthority> {
  const currency = await baseCurrency(scope);
  return scope.transaction(async (tx) => {
    const row = await tx.selectFrom('settlement_controls').select(['limits', 'four_eyes_threshold']).forUpdate().executeTakeFirst();
    const limits: Partial<Record<StaffPosition, string | null>> = { ...(row?.limits ?? {}) };
    for (const position of POSITIONS) {
      const value = body.limits?.[position];
      if (value === undefined) continue;
      if (value === null) delete limits[position];
      else limits[position] = withinDefault(`body.limits.${position}`, value, DEFAULT_SETTLEMENT_LIMITS[position], `limit of ${position}`, currency);
    }
    let threshold = row?.four_eyes_threshold ?? null;
    if (body.fourEyesThreshold !== undefined) {
      threshold = body.fourEyesThreshold === null ? null
        : withinDefault('body.fourEyesThreshold', body.fourEyesThreshold, DEFAULT_FOUR_EYES_THRESHOLD, 'four-eyes threshold', currency);
    }
    const values = { limits: JSON.stringify(limits), four_eyes_threshold: threshold, reason: body.reason ?? null, updated_by_staff_id: staffId, updated_at: now };
    await tx.insertInto('settlement_controls', values).onConflict((oc) => oc.column('tenant_id').doUpdateSet(values)).execute();
    return settlementAuthority(tx);
  });
}
