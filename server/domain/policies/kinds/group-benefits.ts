import { defineKind } from './kind.js';

/**
 * The group benefit schemes: a member an asset (GroupBenefitAsset), each rated on their permanent
 * disability benefit (group life too, not on the death benefit: the tariff the sandbox follows).
 * They share everything but their names.
 */
export const groupBenefits = [
  defineKind({ policyType: 'GROUP_PERSONAL_ACCIDENT', name: 'Group personal accident', ratingBasis: 'permanentDisabilityBenefit' }),
  defineKind({ policyType: 'GROUP_LIFE_PERSONAL_ACCIDENT', name: 'Group life and personal accident', ratingBasis: 'permanentDisabilityBenefit' }),
  defineKind({ policyType: 'GROUP_LIFE', name: 'Group life', ratingBasis: 'permanentDisabilityBenefit' }),
];
