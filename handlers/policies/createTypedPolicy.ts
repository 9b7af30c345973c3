import { clientId } from '../../server/platform/actor.js';
import type { Handler, HandlerRequest } from '../../server/platform/handler-types.js';
import { issuePolicy, type PolicyCreateRequest } from '../../server/domain/policies/issue.js';

/** The per-type create calls (`POST /client/policies/auto`, ...): one typed body each, one engine. */
export type TypedCreateOperation = 'createAutoPolicy' | 'createHomePolicy' | 'createBurglaryPolicy' | 'createMarinePolicy'
  | 'createLifePolicy' | 'createFireAndAlliedPerilsPolicy' | 'createAssetsAllRisksPolicy' | 'createErectionAllRisksPolicy'
  | 'createContractorsAllRisksPolicy' | 'createFidelityGuaranteePolicy' | 'createElectronicEquipmentPolicy'
  | 'createCashInSafePolicy' | 'createCashInTransitPolicy' | 'createHoldUpPolicy' | 'createGeneralLiabilityPolicy'
  | 'createDirectorsOfficersLiabilityPolicy' | 'createAdvancePaymentBondPolicy' | 'createPlantAndMachineryPolicy'
  | 'createBoilerOrPressureVesselPolicy' | 'createBlanketBondPolicy' | 'createBankersIndemnityPolicy'
  | 'createProfessionalIndemnityPolicy' | 'createPublicLiabilityPolicy';

/**
 * Each typed body is one member of the `createPolicy` union (the per-cover money bodies are the
 * MONEY member restricted to one cover), so the same engine serves them. `bodiesFit` fails to
 * compile if a typed body ever stops fitting the union.
 */
const bodiesFit: HandlerRequest<TypedCreateOperation>['body'] extends PolicyCreateRequest ? true : never = true;

export function createTypedPolicy<K extends TypedCreateOperation>(): Handler<K> {
  return (async (ctx, req) => {
    const owner = clientId(ctx);
    return { data: await issuePolicy(ctx, owner, req.body as PolicyCreateRequest, { by: 'client', id: owner }) };
  }) as Handler<K>;
}
void bodiesFit;
