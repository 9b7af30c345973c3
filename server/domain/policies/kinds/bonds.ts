import { defineKind } from './kind.js';

/** BONDS, the advance payment bond: a bond an asset, rated on the bond amount. */
export const bonds = defineKind({ policyType: 'BONDS', name: 'Bonds (advance payment bond)', ratingBasis: 'bondAmount' });
