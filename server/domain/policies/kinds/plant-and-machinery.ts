import { notAfterYear } from './asset-rules.js';
import { defineKind } from './kind.js';

/** PLANT_AND_MACHINERY: a machine an asset, made by this year. */
export const plantAndMachinery = defineKind({
  policyType: 'PLANT_AND_MACHINERY',
  name: 'Plant and machinery',
  checkAsset: (asset, at) => notAfterYear(asset, at, ['yearOfManufacture']),
});
