import { inThePast, notAfterYear } from './asset-rules.js';
import { defineKind } from './kind.js';

/** DIRECTORS_OFFICERS_LIABILITY: a director an asset, appointed by today and qualified by this year. */
export const directorsOfficersLiability = defineKind({
  policyType: 'DIRECTORS_OFFICERS_LIABILITY',
  name: 'Directors and officers liability',
  checkAsset: (asset, at) => {
    inThePast(asset, at, ['dateAppointed'], true);
    notAfterYear(asset, at, ['yearOfQualification']);
  },
});
