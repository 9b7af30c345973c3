import type { EventActor } from '../../platform/events.js';
import type { TransactionScope } from '../../platform/tenancy.js';
import { emit, type DomainEventType, type EventServices } from '../events/catalogue.js';
import { moveClaim, type ClaimMove, type ClaimState } from '../states/claim.js';
import type { StateActor } from '../states/policy.js';

type ClaimEventType = Extract<DomainEventType, `claim.${string}`>;

/**
 * Records one of a claim's events by `actor`; its object is the claim as staff's GET answers it
 * once the change is done (`removes`: now, the change deleting it).
 */
export async function recordClaimEvent(services: EventServices, scope: TransactionScope, type: ClaimEventType, claimId: string, actor: EventActor, at: Date,
  options: { previous?: Record<string, unknown>; removes?: boolean } = {}): Promise<void> {
  await emit(services, scope, actor, { type, object: { type: 'claim', id: claimId }, data: {} }, at, options);
}

/**
 * Moves a claim's stage or status (`moveClaim`: the machine, the race check, the history) and
 * records the move, the one place claims' moves are recorded: `claim.stageChanged` for every move
 * of either field, with its value before (`{stage}` or `{status}`); then `claim.settled` when the
 * stage reaches SETTLED (the settlement is written first), and `claim.closed` when the status
 * reaches CLOSED (on settlement, on rejection after repudiation, or staff closing a decided claim).
 */
export async function moveClaimRecorded(services: EventServices, scope: TransactionScope, claim: ClaimState, move: ClaimMove, actor: StateActor,
  at: Date, notes: string | null = null): Promise<ClaimState> {
  const moved = await moveClaim(scope, claim, move, actor, at, notes);
  const previous = { [move.field]: claim[move.field] };
  await recordClaimEvent(services, scope, 'claim.stageChanged', claim.id, actor, at, { previous });
  if (move.field === 'stage' && move.to === 'SETTLED') await recordClaimEvent(services, scope, 'claim.settled', claim.id, actor, at, { previous });
  if (move.field === 'status' && move.to === 'CLOSED') await recordClaimEvent(services, scope, 'claim.closed', claim.id, actor, at, { previous });
  return moved;
}
