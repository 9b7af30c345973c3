import { Decimal } from 'decimal.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { reachableClient } from '../clients/staff-clients.js';
import { nextNumber } from '../../platform/numbering.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { checkOwnDocuments } from '../documents/owned.js';
import { ownPolicyRow, type PolicyRow } from '../policies/view.js';
import { INITIAL_CLAIM_STAGE, INITIAL_CLAIM_STATUS, recordInitialClaimState } from '../states/claim.js';
import type { StateActor } from '../states/policy.js';
import { assertClaimable, checkClaimAssets, checkClaimDates, checkClaimShape, claimCurrency, isMicroInsuranceClaim, thirdPartyLossRow, type ClaimCreateRequest } from './rules.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';
import { recordClaimEvent } from './events.js';

/**
 * Who files a claim: the client itself, or a staff member for a client within their reach (at the
 * counter). The claim's first status and stage are recorded as theirs.
 */
export type ClaimFiler = StateActor & { by: 'client' | 'staff'; id: string };

/** A claim body checked against its policy: what the rows are written from. */
async function checkClaim(scope: TenantScope, clientId: string, body: ClaimCreateRequest, policy: PolicyRow, today: string) {
  checkClaimShape(body, policy);
  assertClaimable(policy);
  const standard = isMicroInsuranceClaim(body) ? null : body;
  const dateOfNotification = body.dateOfNotification ?? today;
  checkClaimDates(standard?.dateOfLoss ?? null, dateOfNotification, policy, today);
  const assetIds = standard ? await checkClaimAssets(scope, policy, standard.assets) : [];
  const { currency, exchangeRate } = await claimCurrency(scope, body, policy);
  const documentIds = body.documentIds ?? [];
  await checkOwnDocuments(scope, clientId, documentIds, 'body.documentIds');
  return { standard, dateOfNotification, assetIds, currency, exchangeRate, documentIds };
}
type CheckedClaim = Awaited<ReturnType<typeof checkClaim>>;

/** Writes the claim's row, numbered, ACTIVE in REVIEW, and the rows it carries (assets, third party losses, documents), in their order. */
async function insertClaim(scope: TransactionScope, clientId: string, body: ClaimCreateRequest, policy: PolicyRow, checked: CheckedClaim, now: Date) {
  const { standard, assetIds, documentIds } = checked;
  const claimNo = await nextNumber(scope, 'CLM');
  const claim = await scope.insertInto('claims', {
    claim_no: claimNo,
    client_id: clientId,
    policy_id: policy.id,
    status: INITIAL_CLAIM_STATUS,
    stage: INITIAL_CLAIM_STAGE,
    claim_type: isMicroInsuranceClaim(body) ? body.claimType : null,
    loss_category: standard?.lossCategory ?? null,
    date_of_loss: standard?.dateOfLoss ?? null,
    date_of_notification: checked.dateOfNotification,
    incident_location: standard?.incidentLocation ?? null,
    description: body.description ?? null,
    estimated_loss_amount: new Decimal(body.estimatedLossAmount).toFixed(2),
    currency: checked.currency,
    exchange_rate: new Decimal(checked.exchangeRate).toFixed(6),
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
  return { id: claim.id, claimNo };
}

/**
 * Files a claim on one of the client's policies, ACTIVE in REVIEW; answers its id. Everything (the
 * claim, its assets, third party losses, documents, first status and stage, `claim.filed` by
 * whoever filed it, the notification) is written in one transaction, under the policy's row lock
 * so its state cannot change meanwhile.
 */
export async function fileClaim(ctx: HandlerContext, clientId: string, body: ClaimCreateRequest, filedBy: ClaimFiler): Promise<string> {
  const now = ctx.clock.now();
  const today = todayOf(now).date;
  return ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, body.policyId, clientId, { lock: true });
    const checked = await checkClaim(scope, clientId, body, policy, today);
    const claim = await insertClaim(scope, clientId, body, policy, checked, now);
    await recordInitialClaimState(scope, claim.id, filedBy, now);
    await recordClaimEvent(ctx, scope, 'claim.filed', claim.id, filedBy, now);
    await notifyClient(ctx, scope, clientId, {
      title: `Claim ${claim.claimNo} received`,
      body: `We received your claim ${claim.claimNo} on policy ${policy.policy_no}. We will tell you as it is reviewed.`,
      entity: { name: 'claim', id: claim.id },
    });
    return claim.id;
  });
}

/** Files a claim for a client within the caller's reach (404 otherwise), exactly as the client's own, filed by the caller; answers its id. */
export async function fileClaimForClient(ctx: HandlerContext, actor: StaffActor, clientId: string, body: ClaimCreateRequest): Promise<string> {
  await reachableClient(ctx.scope, actor, clientId);
  return fileClaim(ctx, clientId, body, { by: 'staff', id: actor.staffId });
}
