import type { components } from '../../generated/api.js';

type PolicyType = components['schemas']['PolicyType'];

/** Each policy type: its name, the contract's schema for its assets, and its typed create path. */
export const POLICY_TYPES: Record<PolicyType, { name: string; assetSchema: string; createPath?: string }> = {
  AUTO: { name: 'Auto', assetSchema: 'MotorAsset', createPath: '/client/policies/auto' },
  BANKERS_INDEMNITY: { name: 'Bankers indemnity', assetSchema: 'BondClauseAsset', createPath: '/client/policies/bankers-indemnity' },
  BLANKET_BOND: { name: 'Blanket bond', assetSchema: 'BondClauseAsset', createPath: '/client/policies/blanket-bond' },
  BONDS: { name: 'Bonds (advance payment bond)', assetSchema: 'AdvancePaymentBondAsset', createPath: '/client/policies/advance-payment-bond' },
  BOILER_OR_PRESSURE_VESSEL: { name: 'Boiler or pressure vessel', assetSchema: 'BoilerAsset', createPath: '/client/policies/boiler-or-pressure-vessel' },
  BURGLARY: { name: 'Burglary', assetSchema: 'HomeAsset', createPath: '/client/policies/burglary' },
  BUSINESS_INTERRUPTION: { name: 'Business interruption', assetSchema: 'BusinessInterruptionAsset' },
  MONEY: { name: 'Money (cash in safe, cash in transit, hold-up)', assetSchema: 'MoneyAsset' },
  DIRECTORS_OFFICERS_LIABILITY: { name: 'Directors and officers liability', assetSchema: 'DirectorsOfficersAsset', createPath: '/client/policies/directors-officers-liability' },
  ELECTRONIC_EQUIPMENT: { name: 'Electronic equipment', assetSchema: 'GenericLiabilityAsset', createPath: '/client/policies/electronic-equipment' },
  EMPLOYERS_LIABILITY: { name: "Employers' liability", assetSchema: 'GenericAsset' },
  ERECTION_ALL_RISKS: { name: 'Erection all risks', assetSchema: 'ErectionAllRiskAsset', createPath: '/client/policies/erection-all-risks' },
  CONTRACTORS_ALL_RISKS: { name: 'Contractors all risks', assetSchema: 'ContractorsAllRiskAsset', createPath: '/client/policies/contractors-all-risks' },
  FIDELITY_GUARANTEE: { name: 'Fidelity guarantee', assetSchema: 'GenericLiabilityAsset', createPath: '/client/policies/fidelity-guarantee' },
  GENERAL_LIABILITY: { name: 'General liability', assetSchema: 'GeneralLiabilityAsset', createPath: '/client/policies/general-liability' },
  GOODS_IN_TRANSIT: { name: 'Goods in transit', assetSchema: 'GoodsInTransitAsset' },
  GROUP_PERSONAL_ACCIDENT: { name: 'Group personal accident', assetSchema: 'GroupBenefitAsset' },
  HOME: { name: 'Home', assetSchema: 'HomeAsset', createPath: '/client/policies/home' },
  MARINE: { name: 'Marine', assetSchema: 'MarineAsset', createPath: '/client/policies/marine' },
  PERSONAL_ACCIDENT: { name: 'Personal accident', assetSchema: 'GenericAsset' },
  PLANT_ALL_RISKS: { name: 'Plant all risks', assetSchema: 'PlantAllRiskAsset' },
  PLANT_AND_MACHINERY: { name: 'Plant and machinery', assetSchema: 'PlantAndMachineryAsset', createPath: '/client/policies/plant-and-machinery' },
  PROFESSIONAL_INDEMNITY: { name: 'Professional indemnity', assetSchema: 'ProfessionalIndemnityAsset', createPath: '/client/policies/professional-indemnity' },
  PROPERTY_DAMAGE: { name: 'Property damage', assetSchema: 'GenericAsset' },
  PUBLIC_LIABILITY: { name: 'Public liability', assetSchema: 'PublicLiabilityAsset', createPath: '/client/policies/public-liability' },
  TRAVEL: { name: 'Travel', assetSchema: 'TravelAsset' },
  AVIATION: { name: 'Aviation', assetSchema: 'GenericAsset' },
  WORKMENS_COMPENSATION: { name: "Workmen's compensation", assetSchema: 'WorkmensCompensationAsset' },
  FIRE_AND_ALLIED_PERILS: { name: 'Fire and allied perils', assetSchema: 'FireAsset', createPath: '/client/policies/fire-and-allied-perils' },
  ASSETS_ALL_RISKS: { name: 'Assets all risks', assetSchema: 'FireAsset', createPath: '/client/policies/assets-all-risks' },
  AGRICULTURAL: { name: 'Agricultural', assetSchema: 'GenericAsset' },
  STOCK_DETERIORATION: { name: 'Stock deterioration', assetSchema: 'GenericAsset' },
  MOTOR_TRADERS: { name: 'Motor traders', assetSchema: 'GenericAsset' },
  LIFE: { name: 'Life', assetSchema: 'LifeAsset', createPath: '/client/policies/life' },
  GROUP_LIFE_PERSONAL_ACCIDENT: { name: 'Group life and personal accident', assetSchema: 'GroupBenefitAsset' },
  GROUP_LIFE: { name: 'Group life', assetSchema: 'GroupBenefitAsset' },
  GROUP_FUNERAL: { name: 'Group funeral', assetSchema: 'GroupFuneralAsset' },
  HEALTH: { name: 'Health', assetSchema: 'GenericAsset' },
  PENSION: { name: 'Pension', assetSchema: 'GenericAsset' },
};

/** Types whose policy carries its own sum insured (the scheme's), not the assets' total. */
export const SCHEME_SUM_INSURED_TYPES: ReadonlySet<string> = new Set(['GROUP_PERSONAL_ACCIDENT', 'GROUP_LIFE', 'WORKMENS_COMPENSATION']);

/** A stored policy's scheme sum insured, for pricing it again. */
export const schemeSumInsuredOf = (policy: { policy_type: string; sum_insured: string | null }) =>
  SCHEME_SUM_INSURED_TYPES.has(policy.policy_type) && policy.sum_insured !== null ? Number(policy.sum_insured) : undefined;
