import { defineKind } from './kind.js';

/**
 * The kinds that share everything but their names: each asset rated on its sum insured (the
 * product's `rate` percent of it), a date of birth, where an asset has one, in the past.
 */
export const sumInsuredKinds = ([
  ['HOME', 'Home'],
  ['BURGLARY', 'Burglary'],
  ['MARINE', 'Marine'],
  ['FIRE_AND_ALLIED_PERILS', 'Fire and allied perils'],
  ['ASSETS_ALL_RISKS', 'Assets all risks'],
  ['FIDELITY_GUARANTEE', 'Fidelity guarantee'],
  ['ELECTRONIC_EQUIPMENT', 'Electronic equipment'],
  ['MONEY', 'Money (cash in safe, cash in transit, hold-up)'],
  ['GENERAL_LIABILITY', 'General liability'],
  ['BOILER_OR_PRESSURE_VESSEL', 'Boiler or pressure vessel'],
  ['BLANKET_BOND', 'Blanket bond'],
  ['BANKERS_INDEMNITY', 'Bankers indemnity'],
  ['PROFESSIONAL_INDEMNITY', 'Professional indemnity'],
  ['PUBLIC_LIABILITY', 'Public liability'],
  ['GOODS_IN_TRANSIT', 'Goods in transit'],
  ['BUSINESS_INTERRUPTION', 'Business interruption'],
  ['EMPLOYERS_LIABILITY', "Employers' liability"],
  ['PERSONAL_ACCIDENT', 'Personal accident'],
  ['PLANT_ALL_RISKS', 'Plant all risks'],
  ['PROPERTY_DAMAGE', 'Property damage'],
  ['AVIATION', 'Aviation'],
  ['AGRICULTURAL', 'Agricultural'],
  ['STOCK_DETERIORATION', 'Stock deterioration'],
  ['MOTOR_TRADERS', 'Motor traders'],
  ['HEALTH', 'Health'],
  ['PENSION', 'Pension'],
] as const).map(([policyType, name]) => defineKind({ policyType, name }));
