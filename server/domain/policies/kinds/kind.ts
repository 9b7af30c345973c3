import type { components } from '../../../../generated/api.js';
import { rateOnBasis, type AssetRater } from '../../rating/index.js';
import { inThePast, type Asset, type AssetRule } from './asset-rules.js';

export type PolicyType = components['schemas']['PolicyType'];

/**
 * One policy kind (a `policyType` of the contract) as the policy engine needs it: what people call
 * it, the asset rules the schema cannot state, and how an asset is priced. Its request and asset
 * schemas are the contract's (spec/components/schemas/policy-create/), its typed create and quote
 * calls a row of spec/policy-kinds.yaml; test/static/policy-kind-registry.test.ts checks the table
 * and the registry (kinds/index.ts) name the same kinds.
 */
export interface PolicyKind<T extends string = PolicyType> {
  policyType: T;
  /** What people call it (`GET /client/policy-types`, receipts). */
  name: string;
  /**
   * The asset field its price is worked on: the product's `rate` percent of it for most kinds, the
   * vehicle's value (own damage) for the motor tariff; null when no field is (priced per member).
   */
  ratingBasis: string | null;
  /** Prices one asset (server/domain/rating runs it for each asset, then the policy-wide steps). */
  rateAsset: AssetRater;
  /** Checks one asset (a copy, as it will be stored) and fills the defaults the contract names. */
  checkAsset: AssetRule;
  /** Whether a policy of the kind takes a `fleetDiscountRate`. */
  fleetDiscount: boolean;
}

/** What a kind's module says; the rest has the defaults most kinds share. */
export interface KindDefinition<T extends string> {
  policyType: T;
  name: string;
  /** Default `sumInsured`. */
  ratingBasis?: string | null;
  /** Default: the product's `rate` percent of `ratingBasis`. */
  rateAsset?: AssetRater;
  /** Default: a `dateOfBirth` must be in the past. */
  checkAsset?: AssetRule;
  fleetDiscount?: boolean;
}

/** The rule of every kind without rules of its own: a person's date of birth is in the past. */
export const bornInThePast: AssetRule = (asset, at) => inThePast(asset, at, ['dateOfBirth']);

/** A kind from its module's definition, the shared defaults filled in. */
export function defineKind<T extends string = PolicyType>(definition: KindDefinition<T>): PolicyKind<T> {
  const ratingBasis = definition.ratingBasis === undefined ? 'sumInsured' : definition.ratingBasis;
  if (!definition.rateAsset && ratingBasis === null) throw new Error(`${definition.policyType}: a kind without a rating basis needs a rater of its own`);
  return {
    policyType: definition.policyType,
    name: definition.name,
    ratingBasis,
    rateAsset: definition.rateAsset ?? rateOnBasis(ratingBasis!),
    checkAsset: definition.checkAsset ?? bornInThePast,
    fleetDiscount: definition.fleetDiscount ?? false,
  };
}

export type { Asset, AssetRule } from './asset-rules.js';
