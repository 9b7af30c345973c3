import { Decimal } from 'decimal.js';
import type { AssetRater } from '../../rating/index.js';
import { defineKind } from './kind.js';

/** Each member costs the product's `ratePerMember`, whoever they are. */
const ratePerMember: AssetRater = (_member, rates, index) => {
  const perMember = new Decimal(rates.ratePerMember ?? 0);
  return [{ asset: index, code: 'MEMBER', label: `Member at ${perMember.toFixed(2)}`, rate: null, amount: perMember }];
};

/** GROUP_FUNERAL: a member an asset, priced per member. */
export const groupFuneral = defineKind({ policyType: 'GROUP_FUNERAL', name: 'Group funeral', ratingBasis: null, rateAsset: ratePerMember });
