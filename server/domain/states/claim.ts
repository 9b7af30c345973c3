import type { ClaimStage, ClaimStatus } from '../../platform/db/schema.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { assertTransition, type Machine } from './machine.js';
import type { StateActor } from './policy.js';

/**
 * Claim status (docs/docs/state-machines.md): open until staff close it. Closing is staff's decision once
 * the claim is settled or rejected; nothing reopens a closed claim (a new claim is made instead).
 */
export const CLAIM_STATUSES: Machine<ClaimStatus> = {
  ACTIVE: { CLOSED: ['staff'] },
  CLOSED: {},
};

/**
 * Claim stage: staff review a claim, then settle it (SETTLEMENT, then SETTLED once paid) or
 * repudiate it (REPUDIATION, then REJECTED). The client moves neither: it makes the claim, and
 * may withdraw it only while nothing has happened to it (deleteClaim).
 */
export const CLAIM_STAGES: Machine<ClaimStage> = {
  REVIEW: { SETTLEMENT: ['staff'], REPUDIATION: ['staff'] },
  SETTLEMENT: { SETTLED: ['staff'] },
  REPUDIATION: { REJECTED: ['staff'] },
  SETTLED: {},
  REJECTED: {},
};

export const INITIAL_CLAIM_STATUS: ClaimStatus = 'ACTIVE';
export const INITIAL_CLAIM_STAGE: ClaimStage = 'REVIEW';

/** Records a new claim's first status and stage (from nothing), made by whoever filed it: the client, or staff for it. */
export async function recordInitialClaimState(scope: TransactionScope, claimId: string, filer: { by: 'client' | 'staff'; id: string }, at: Date) {
  const notes = filer.by === 'staff' ? 'Claim filed by staff for the client' : 'Claim submitted by the client';
  const first = { claim_id: claimId, from_state: null, actor_kind: filer.by, actor_id: filer.id, notes, created_at: at };
  await scope.insertInto('claim_state_changes', [
    { ...first, field: 'status', to_state: INITIAL_CLAIM_STATUS },
    { ...first, field: 'stage', to_state: INITIAL_CLAIM_STAGE },
  ]).execute();
}

/** A claim as a move reads it: its number (for messages) and the status and stage it was read in. */
export interface ClaimState { id: string; claimNo: string; status: ClaimStatus; stage: ClaimStage }
/** A move of one of a claim's two fields, each by its own machine. */
export type ClaimMove = { field: 'status'; to: ClaimStatus } | { field: 'stage'; to: ClaimStage };

/**
 * Moves a claim's status or stage if its machine allows it for this actor, and records the change
 * (field, from, to, who, notes, when); the update only applies if the field still holds what the
 * caller read (two racing moves cannot both win), and
 * answers the claim as moved so a second move can follow.
 */
export async function moveClaim(scope: TransactionScope, claim: ClaimState, move: ClaimMove, actor: StateActor, at: Date,
  notes: string | null = null): Promise<ClaimState> {
  const from = claim[move.field];
  const machine = (move.field === 'status' ? CLAIM_STATUSES : CLAIM_STAGES) as Machine<string>;
  assertTransition(machine, `Claim ${claim.claimNo} ${move.field}`, from, move.to, actor.by);
  const moved = await scope.updateTable('claims').set({ [move.field]: move.to, updated_at: at })
    .where('id', '=', claim.id).where(move.field, '=', from).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw conflict(`Claim ${claim.claimNo} changed ${move.field} meanwhile; read it again and retry`, 'STATE_CHANGED');
  await scope.insertInto('claim_state_changes', {
    claim_id: claim.id, field: move.field, from_state: from, to_state: move.to, actor_kind: actor.by, actor_id: actor.id, notes, created_at: at,
  }).execute();
  return { ...claim, [move.field]: move.to };
}
