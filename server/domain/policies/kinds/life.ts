import { defineKind } from './kind.js';

/** LIFE: a life insured an asset, rated on its death benefit. */
export const life = defineKind({ policyType: 'LIFE', name: 'Life', ratingBasis: 'deathBenefit' });
