import { defineKind } from './kind.js';

/** CONTRACTORS_ALL_RISKS: a contract an asset, rated on the contract sum (not the machinery). */
export const contractorsAllRisks = defineKind({ policyType: 'CONTRACTORS_ALL_RISKS', name: 'Contractors all risks', ratingBasis: 'contractSum' });
