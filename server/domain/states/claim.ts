import type { ClaimStage, ClaimStatus } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import type { Machine } from './machine.js';

/**
 * Claim status (DESIGN.md section 4): open until staff close it. Closing is staff's decision once
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

/** Records a new claim's first status and stage (from nothing), made by the client. */
export async function recordInitialClaimState(scope: TenantScope, claimId: string, clientId: string, at: Date) {
  const first = { claim_id: claimId, from_state: null, actor_kind: 'client' as const, actor_id: clientId, notes: 'Claim submitted by the client', created_at: at };
  await scope.insertInto('claim_state_changes', [
    { ...first, field: 'status', to_state: INITIAL_CLAIM_STATUS },
    { ...first, field: 'stage', to_state: INITIAL_CLAIM_STAGE },
  ]).execute();
}
