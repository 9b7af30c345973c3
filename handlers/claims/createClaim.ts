import { Decimal } from 'decimal.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { nextNumber } from '../../server/platform/numbering.js';
import { INITIAL_CLAIM_STAGE, INITIAL_CLAIM_STATUS, recordInitialClaimState } from '../../server/domain/states/claim.js';
import { clientId } from '../../server/platform/actor.js';
import { checkOwnDocuments } from '../../server/domain/documents/owned.js';
import { todayOf } from '../../server/domain/policies/rules.js';
import { ownPolicyRow } from '../../server/domain/policies/view.js';
import type { Handler } from '../types.js';
import {
  assertClaimable, checkClaimAssets, checkClaimDates, checkClaimShape, claimCurrency, isMicroInsuranceClaim, thirdPartyLossRow,
} from '../../server/domain/claims/rules.js';
import { loadClaim } from '../../server/domain/claims/view.js';

/**
 * Makes a claim on one of the client's policies, ACTIVE in REVIEW. Everything (the claim, its
 * assets, third party losses, documents, first status and stage, the notification) is written in
 * one transaction, under the policy's row lock so its state cannot change meanwhile.
 */
export const createClaim: Handler<'createClaim'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  const today = todayOf(now).date;
  const id = await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, body.policyId, owner, { lock: true });
    checkClaimShape(body, policy);
    assertClaimable(policy);
    const standard = isMicroInsuranceClaim(body) ? null : body;
    const dateOfNotification = body.dateOfNotification ?? today;
    checkClaimDates(standard?.dateOfLoss ?? null, dateOfNotification, policy, today);
    const assetIds = standard ? await checkClaimAssets(scope, policy, standard.assets) : [];
    const { currency, exchangeRate } = await claimCurrency(scope, body, policy);
    const documentIds = body.documentIds ?? [];
    await checkOwnDocuments(scope, owner, documentIds, 'body.documentIds');

    const claimNo = await nextNumber(scope, 'CLM');
    const claim = await scope.insertInto('claims', {
      claim_no: claimNo,
      client_id: owner,
      policy_id: policy.id,
      status: INITIAL_CLAIM_STATUS,
      stage: INITIAL_CLAIM_STAGE,
      claim_type: isMicroInsuranceClaim(body) ? body.claimType : null,
      loss_category: standard?.lossCategory ?? null,
      date_of_loss: standard?.dateOfLoss ?? null,
      date_of_notification: dateOfNotification,
      incident_location: standard?.incidentLocation ?? null,
      description: body.description ?? null,
      estimated_loss_amount: new Decimal(body.estimatedLossAmount).toFixed(2),
      currency,
      exchange_rate: new Decimal(exchangeRate).toFixed(6),
      created_at: now,
      updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();

    if (assetIds.length) {
      await scope.insertInto('claim_assets', assetIds.map((assetId, position) => ({ claim_id: claim.id, policy_asset_id: assetId, position }))).execute();
    }
    const losses = standard?.thirdPartyLoss ?? [];
    if (losses.length) {
      await scope.insertInto('claim_third_party_losses', losses.map((loss, position) => ({ claim_id: claim.id, position, ...thirdPartyLossRow(loss) }))).execute();
    }
    if (documentIds.length) {
      await scope.insertInto('claim_documents', documentIds.map((documentId, position) => ({ claim_id: claim.id, document_id: documentId, position }))).execute();
    }
    await recordInitialClaimState(scope, claim.id, owner, now);
    await notifyClient(ctx, scope, owner, {
      title: `Claim ${claimNo} received`,
      body: `We received your claim ${claimNo} on policy ${policy.policy_no}. We will tell you as it is reviewed.`,
      entity: { name: 'claim', id: claim.id },
    });
    return claim.id;
  });
  return { data: await loadClaim(ctx.scope, id, owner) };
};
