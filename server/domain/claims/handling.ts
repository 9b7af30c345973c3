import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { ApiError, badRequest, conflict } from '../../platform/errors.js';
import { ownRow } from '../../platform/ownership.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { checkOwnDocuments } from '../documents/owned.js';
import { toCents } from '../money/billing.js';
import { clientInReach } from '../staff/reach.js';
import { canTransition } from '../states/machine.js';
import { CLAIM_STAGES, type ClaimState } from '../states/claim.js';
import type { StateActor } from '../states/policy.js';
import { claimColumns, companyClaims, toClaims, type Claim, type ClaimRow } from './view.js';
import { notifyClient } from '../accounts/notify.js';
import { assertSettlementAuthority, assertWithinSumInsured } from './authority.js';
import { moveClaimRecorded, recordClaimEvent } from './events.js';

type ReviewBody = components['schemas']['ClaimReviewCreate'];
type StageMove = components['schemas']['ClaimStageMove'];
type SettlementBody = components['schemas']['ClaimSettlementCreate'];

/**
 * Staff's handling of claims (docs/docs/state-machines.md): reviews while in REVIEW, the decision to settle
 * or repudiate, the settlement that pays and closes the claim, and closing a decided claim. Every
 * change of stage or status goes through `moveClaimRecorded` (the machine of states/claim.ts, and
 * its events), recorded with the staff member, and each runs in one transaction under the claim's
 * row lock.
 */

/** What handling a claim needs: the clock, the tenant's rows, and what records its events. */
type ClaimServices = Pick<HandlerContext, 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>;

/** The company's claims of clients within a staff member's reach (callers add filters, order and page). */
export const claimsInReach = (scope: TenantScope, actor: StaffActor) => companyClaims(scope).where(clientInReach('claims.client_id', actor));

/** A claim of a client within reach, or 404 (out of reach and another tenant's alike). */
const claimRowInReach = (scope: TenantScope, actor: StaffActor, id: string, options: { lock?: boolean } = {}): Promise<ClaimRow> =>
  ownRow(claimsInReach(scope, actor).select(claimColumns), 'claims', id, 'Claim', options);

/** One claim of a client within reach as the API answers it, documents included. */
export async function claimForStaff(scope: TenantScope, actor: StaffActor, id: string): Promise<Claim> {
  const [claim] = await toClaims(scope, [await claimRowInReach(scope, actor, id)], { withDocuments: true });
  return claim;
}

/**
 * Runs `change` on a claim within reach in one transaction, its row locked so nothing moves it
 * meanwhile, then answers the claim as it now is.
 */
async function handleClaim(ctx: ClaimServices, actor: StaffActor, id: string,
  change: (scope: TransactionScope, row: ClaimRow, claim: ClaimState, by: StateActor, now: Date) => Promise<void>): Promise<Claim> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const row = await claimRowInReach(scope, actor, id, { lock: true });
    await change(scope, row, { id: row.id, claimNo: row.claim_no, status: row.status, stage: row.stage }, { by: 'staff', id: actor.staffId }, now);
  });
  return claimForStaff(ctx.scope, actor, id);
}

const money = (value: Decimal.Value) => toCents(value).toFixed(2);

/** The newest review that gives an adjusted settlement amount: the amount and who reviewed; or null. */
async function adjustedReview(scope: TenantScope, claimId: string): Promise<{ amount: Decimal; reviewerId: string | null } | null> {
  const review = await scope.selectFrom('claim_reviews').select(['adjusted_settlement_amount', 'created_by_staff_id'])
    .where('claim_id', '=', claimId).where('adjusted_settlement_amount', 'is not', null)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return review?.adjusted_settlement_amount == null ? null
    : { amount: new Decimal(review.adjusted_settlement_amount), reviewerId: review.created_by_staff_id };
}

const noAdjustedAmount = (claim: ClaimState) => conflict(
  `Claim ${claim.claimNo} has no review with an adjustedSettlementAmount; review it with one before moving it to SETTLEMENT`, 'NO_ADJUSTED_AMOUNT');

/** Records a staff member's review of a claim ACTIVE in REVIEW (409 CLAIM_NOT_IN_REVIEW otherwise). */
export function reviewClaim(ctx: ClaimServices, actor: StaffActor, id: string, body: ReviewBody): Promise<Claim> {
  return handleClaim(ctx, actor, id, async (scope, row, claim, by, now) => {
    if (claim.status !== 'ACTIVE' || claim.stage !== 'REVIEW') {
      throw conflict(`Claim ${claim.claimNo} is ${claim.status} in ${claim.stage}; a claim is reviewed only while ACTIVE in REVIEW`, 'CLAIM_NOT_IN_REVIEW');
    }
    if (body.adjustedSettlementAmount !== undefined) {
      await assertWithinSumInsured(scope, row, toCents(body.adjustedSettlementAmount), 'body.adjustedSettlementAmount');
    }
    const documentIds = body.documents ?? [];
    await checkOwnDocuments(scope, row.client_id, documentIds, 'body.documents');
    await scope.insertInto('claim_reviews', {
      claim_id: claim.id,
      inspection_notes: body.inspectionNotes ?? null,
      general_notes: body.generalNotes ?? null,
      adjusted_settlement_amount: body.adjustedSettlementAmount === undefined ? null : money(body.adjustedSettlementAmount),
      created_by_staff_id: actor.staffId,
      document_ids: JSON.stringify(documentIds),
      created_at: now,
    }).execute();
    await recordClaimEvent(ctx, scope, 'claim.reviewed', claim.id, by, now);
  });
}

/**
 * Moves an ACTIVE claim's stage as the machine allows (SETTLEMENT only once a review gives an
 * adjusted amount); REJECTED closes it too. The client is told.
 */
export function moveClaimStage(ctx: HandlerContext, actor: StaffActor, id: string, { stage, notes }: StageMove): Promise<Claim> {
  return handleClaim(ctx, actor, id, async (scope, row, claim, by, now) => {
    if (claim.status !== 'ACTIVE') throw conflict(`Claim ${claim.claimNo} is ${claim.status}; a closed claim does not move`, 'CLAIM_CLOSED');
    if (stage === 'SETTLEMENT' && canTransition(CLAIM_STAGES, claim.stage, stage, by.by) && !(await adjustedReview(scope, claim.id))) {
      throw noAdjustedAmount(claim);
    }
    const moved = await moveClaimRecorded(ctx, scope, claim, { field: 'stage', to: stage }, by, now, notes);
    if (stage === 'REJECTED') await moveClaimRecorded(ctx, scope, moved, { field: 'status', to: 'CLOSED' }, by, now, notes);
    const news = {
      SETTLEMENT: 'has been accepted for settlement; we will tell you when it is paid',
      REPUDIATION: 'is being considered for repudiation (declining it); we will tell you the outcome',
      REJECTED: 'has been rejected and is closed',
    }[stage];
    await notifyClient(ctx, scope, row.client_id, {
      title: `Claim ${claim.claimNo}: ${stage}`, body: `Your claim ${claim.claimNo} ${news}. ${notes}`, entity: { name: 'claim', id: claim.id },
    });
  });
}

/**
 * The most a claim may be settled for: the adjusted amount less the penalty (a FEE as given, a
 * PERCENTAGE of the adjusted amount) and less the client's contribution when it applies; with the
 * sentence that explains it.
 */
export function settlementLimit(adjusted: Decimal, body: SettlementBody): { limit: Decimal; explained: string } {
  let limit = adjusted;
  const parts = [`the adjusted settlement amount ${money(adjusted)}`];
  if (body.penaltyApplicable !== undefined) {
    const value = new Decimal(body.penaltyValue!);
    const penalty = body.penaltyApplicable === 'FEE' ? toCents(value) : toCents(adjusted.mul(value).div(100));
    limit = limit.minus(penalty);
    parts.push(`less a ${body.penaltyApplicable} penalty of ${money(penalty)}${body.penaltyApplicable === 'PERCENTAGE' ? ` (${value.toString()}%)` : ''}`);
  }
  if (body.contributionApplicable && body.contributionAmount !== undefined) {
    limit = limit.minus(toCents(body.contributionAmount));
    parts.push(`less the client's contribution of ${money(body.contributionAmount)}`);
  }
  return { limit, explained: parts.join(' ') };
}

/** The fields a settlement gives only together (the schema requires each second one with its first; this refuses it alone). */
function checkSettlementFields(body: SettlementBody) {
  if (body.penaltyValue !== undefined && body.penaltyApplicable === undefined) {
    throw badRequest('body.penaltyValue is given without body.penaltyApplicable (FEE or PERCENTAGE)');
  }
  if (body.contributionAmount !== undefined && !body.contributionApplicable) {
    throw badRequest('body.contributionAmount is given but body.contributionApplicable is not true');
  }
}

/**
 * Settles a claim ACTIVE in SETTLEMENT: the settlement (within the limit, else 422
 * SETTLEMENT_EXCEEDS_ADJUSTED; within the sum insured and the settler's authority, `authority.ts`), SETTLEMENT -> SETTLED, ACTIVE -> CLOSED and the client's
 * notification, in one transaction.
 */
export function settleClaim(ctx: HandlerContext, actor: StaffActor, id: string, body: SettlementBody): Promise<Claim> {
  checkSettlementFields(body);
  return handleClaim(ctx, actor, id, async (scope, row, claim, by, now) => {
    if (claim.status !== 'ACTIVE' || claim.stage !== 'SETTLEMENT') {
      throw conflict(`Claim ${claim.claimNo} is ${claim.status} in ${claim.stage}; a claim is settled only while ACTIVE in SETTLEMENT`,
        'CLAIM_NOT_IN_SETTLEMENT');
    }
    const review = await adjustedReview(scope, claim.id);
    if (!review) throw noAdjustedAmount(claim);
    const { limit, explained } = settlementLimit(review.amount, body);
    const amount = toCents(body.amount);
    if (amount.greaterThan(limit)) {
      throw new ApiError(422, 'SETTLEMENT_EXCEEDS_ADJUSTED', `body.amount ${money(amount)} exceeds ${money(Decimal.max(limit, 0))}, ${explained}`);
    }
    await assertWithinSumInsured(scope, row, amount, 'body.amount');
    await assertSettlementAuthority(scope, actor, row, amount, review.reviewerId);
    const documentIds = body.documents ?? [];
    await checkOwnDocuments(scope, row.client_id, documentIds, 'body.documents');
    await scope.insertInto('claim_settlements', {
      claim_id: claim.id,
      amount: money(amount),
      penalty_applicable: body.penaltyApplicable ?? null,
      penalty_value: body.penaltyValue === undefined ? null : money(body.penaltyValue),
      contribution_applicable: body.contributionApplicable ?? false,
      contribution_amount: body.contributionAmount === undefined ? null : money(body.contributionAmount),
      recipient: body.recipient,
      payment_date: body.paymentDate,
      payment_method: body.paymentMethod,
      payment_method_info: body.paymentMethodInfo,
      created_by_staff_id: actor.staffId,
      document_ids: JSON.stringify(documentIds),
      created_at: now,
    }).execute();
    const paid = `${money(amount)} ${row.currency} paid to ${body.recipient} on ${body.paymentDate} (${body.paymentMethod})`;
    const settled = await moveClaimRecorded(ctx, scope, claim, { field: 'stage', to: 'SETTLED' }, by, now, `Settled: ${paid}`);
    await moveClaimRecorded(ctx, scope, settled, { field: 'status', to: 'CLOSED' }, by, now, 'Closed on settlement');
    await notifyClient(ctx, scope, row.client_id, {
      title: `Claim ${claim.claimNo} settled`, body: `Your claim ${claim.claimNo} is settled and closed: ${paid}.`, entity: { name: 'claim', id: claim.id },
    });
  });
}

/** Closes a decided (SETTLED or REJECTED) claim still ACTIVE; an undecided one is 409 CLAIM_UNDECIDED. */
export function closeClaim(ctx: HandlerContext, actor: StaffActor, id: string, notes: string): Promise<Claim> {
  return handleClaim(ctx, actor, id, async (scope, row, claim, by, now) => {
    if (claim.stage !== 'SETTLED' && claim.stage !== 'REJECTED') {
      throw conflict(`Claim ${claim.claimNo} is in ${claim.stage}; only a SETTLED or REJECTED claim is closed`, 'CLAIM_UNDECIDED');
    }
    await moveClaimRecorded(ctx, scope, claim, { field: 'status', to: 'CLOSED' }, by, now, notes);
    await notifyClient(ctx, scope, row.client_id, {
      title: `Claim ${claim.claimNo} closed`, body: `Your claim ${claim.claimNo} (${claim.stage}) is closed. ${notes}`, entity: { name: 'claim', id: claim.id },
    });
  });
}
