import { createPolicy } from './createPolicy.js';
import { createTypedPolicy } from './createTypedPolicy.js';
import { deletePolicy } from './deletePolicy.js';
import { getPolicy } from './getPolicy.js';
import { listPolicies } from './listPolicies.js';
import { listPolicyHistory } from './listPolicyHistory.js';
import { listPolicyTypes } from './listPolicyTypes.js';
import { renewPolicy } from './renewPolicy.js';
import { updatePolicy } from './updatePolicy.js';

export const policyHandlers = {
  createPolicy,
  listPolicies,
  listPolicyTypes,
  getPolicy,
  updatePolicy,
  deletePolicy,
  renewPolicy,
  listPolicyHistory,
  createAutoPolicy: createTypedPolicy<'createAutoPolicy'>(),
  createHomePolicy: createTypedPolicy<'createHomePolicy'>(),
  createBurglaryPolicy: createTypedPolicy<'createBurglaryPolicy'>(),
  createMarinePolicy: createTypedPolicy<'createMarinePolicy'>(),
  createLifePolicy: createTypedPolicy<'createLifePolicy'>(),
  createFireAndAlliedPerilsPolicy: createTypedPolicy<'createFireAndAlliedPerilsPolicy'>(),
  createAssetsAllRisksPolicy: createTypedPolicy<'createAssetsAllRisksPolicy'>(),
  createErectionAllRisksPolicy: createTypedPolicy<'createErectionAllRisksPolicy'>(),
  createContractorsAllRisksPolicy: createTypedPolicy<'createContractorsAllRisksPolicy'>(),
  createFidelityGuaranteePolicy: createTypedPolicy<'createFidelityGuaranteePolicy'>(),
  createElectronicEquipmentPolicy: createTypedPolicy<'createElectronicEquipmentPolicy'>(),
  createCashInSafePolicy: createTypedPolicy<'createCashInSafePolicy'>(),
  createCashInTransitPolicy: createTypedPolicy<'createCashInTransitPolicy'>(),
  createHoldUpPolicy: createTypedPolicy<'createHoldUpPolicy'>(),
  createGeneralLiabilityPolicy: createTypedPolicy<'createGeneralLiabilityPolicy'>(),
  createDirectorsOfficersLiabilityPolicy: createTypedPolicy<'createDirectorsOfficersLiabilityPolicy'>(),
  createAdvancePaymentBondPolicy: createTypedPolicy<'createAdvancePaymentBondPolicy'>(),
  createPlantAndMachineryPolicy: createTypedPolicy<'createPlantAndMachineryPolicy'>(),
  createBoilerOrPressureVesselPolicy: createTypedPolicy<'createBoilerOrPressureVesselPolicy'>(),
  createBlanketBondPolicy: createTypedPolicy<'createBlanketBondPolicy'>(),
  createBankersIndemnityPolicy: createTypedPolicy<'createBankersIndemnityPolicy'>(),
  createProfessionalIndemnityPolicy: createTypedPolicy<'createProfessionalIndemnityPolicy'>(),
  createPublicLiabilityPolicy: createTypedPolicy<'createPublicLiabilityPolicy'>(),
};
