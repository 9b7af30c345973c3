import { ratePolicy, type Rating, type RatingInput } from '../../rating/index.js';
import type { Asset, AssetAt } from './asset-rules.js';
import { auto } from './auto.js';
import { bonds } from './bonds.js';
import { contractorsAllRisks } from './contractors-all-risks.js';
import { directorsOfficersLiability } from './directors-officers-liability.js';
import { erectionAllRisks } from './erection-all-risks.js';
import { groupBenefits } from './group-benefits.js';
import { groupFuneral } from './group-funeral.js';
import type { PolicyKind } from './kind.js';
import { life } from './life.js';
import { plantAndMachinery } from './plant-and-machinery.js';
import { sumInsuredKinds } from './sum-insured.js';
import { travel } from './travel.js';
import { workmensCompensation } from './workmens-compensation.js';

/**
 * The registry of policy kinds: every policy type the engine sells, each from its module in this
 * folder. The policy engine asks it (never switches on a type) for a kind's name, asset rules,
 * rating basis and rater. To add a kind: a row in spec/policy-kinds.yaml, a module here registered
 * below, then `npm run generate` (test/static/policy-kind-registry.test.ts names what is missing).
 */
export const POLICY_KINDS: readonly PolicyKind[] = [
  auto, travel, life, ...groupBenefits, groupFuneral, workmensCompensation, contractorsAllRisks, bonds,
  directorsOfficersLiability, plantAndMachinery, erectionAllRisks, ...sumInsuredKinds,
];

const BY_TYPE = new Map(POLICY_KINDS.map((kind) => [kind.policyType as string, kind]));

/** A policy type's kind. The contract lets only its policy types in, so an unknown one is a bug. */
export function kindOf(policyType: string): PolicyKind {
  const kind = BY_TYPE.get(policyType);
  if (!kind) throw new Error(`No policy kind ${policyType} in server/domain/policies/kinds/index.ts`);
  return kind;
}

/** The kinds whose policies take a `fleetDiscountRate`. */
export const FLEET_DISCOUNT_TYPES = POLICY_KINDS.filter((kind) => kind.fleetDiscount).map((kind) => kind.policyType);

/**
 * Each asset checked by its kind's rules, with the defaults the contract names filled in (ajv
 * leaves defaults inside `oneOf` unapplied, so they are filled here for every path). Answers the
 * assets as they will be stored: the price sent with an asset is dropped (the server's is stored
 * beside it).
 */
export function checkAssets(policyType: string, assets: Asset[], term: AssetAt['term'], today: AssetAt['today'], root = 'body'): Asset[] {
  return checkKindAssets(kindOf(policyType), assets, term, today, root);
}

/** `checkAssets` with the kind itself (the kind checks run a kind that is not registered through it). */
export function checkKindAssets({ checkAsset }: Pick<PolicyKind<string>, 'checkAsset'>, assets: Asset[], term: AssetAt['term'], today: AssetAt['today'], root = 'body'): Asset[] {
  return assets.map((original, index) => {
    const asset: Asset = { ...original };
    delete asset.premium;
    checkAsset(asset, { index, root, today, term: { startDate: term.startDate, endDate: term.endDate } });
    return asset;
  });
}

/** What the rating engine needs, the rater named by the policy type. */
export type KindRatingInput = Omit<RatingInput, 'rateAsset'> & { policyType: string };

/** Prices a cover of a policy type through the rating engine with its kind's rater. */
export const rateKind = ({ policyType, ...input }: KindRatingInput): Rating => ratePolicy({ ...input, rateAsset: kindOf(policyType).rateAsset });

export type { PolicyKind } from './kind.js';
