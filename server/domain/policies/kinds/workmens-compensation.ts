import { defineKind } from './kind.js';

/** WORKMENS_COMPENSATION: a category of workers an asset, rated on their estimated annual salary. */
export const workmensCompensation = defineKind({ policyType: 'WORKMENS_COMPENSATION', name: "Workmen's compensation", ratingBasis: 'estimatedAnnualSalary' });
