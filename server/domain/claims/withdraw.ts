import { conflict } from '../../platform/errors.js';
import type { HandlerContext } from '../../platform/context.js';
import { recordClaimEvent } from './events.js';
import { ownClaim } from './view.js';

/**
 * Withdraws one of the client's claims staff have not started on: ACTIVE, in REVIEW, with no review
 * or settlement; answers its number. The claim's row is locked for the checks and the delete, so a
 * review cannot slip in between. A withdrawn claim is closed for good (it is deleted): `claim.closed`
 * by the client, recorded just before the delete, holds the claim as it was last answered.
 */
export async function withdrawClaim(ctx: Pick<HandlerContext, 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>, clientId: string,
  id: string): Promise<string> {
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (scope) => {
    const claim = await ownClaim(scope, id, clientId, { lock: true });
    const rule = 'a claim can be withdrawn only while ACTIVE in REVIEW with no review or settlement';
    if (claim.status !== 'ACTIVE' || claim.stage !== 'REVIEW') {
      throw conflict(`Claim ${claim.claim_no} is ${claim.status} in ${claim.stage}; ${rule}`, 'CLAIM_IN_PROGRESS');
    }
    const review = await scope.selectFrom('claim_reviews').select('id').where('claim_id', '=', claim.id).executeTakeFirst();
    const settlement = await scope.selectFrom('claim_settlements').select('id').where('claim_id', '=', claim.id).executeTakeFirst();
    if (review || settlement) throw conflict(`Claim ${claim.claim_no} has a ${review ? 'review' : 'settlement'}; ${rule}`, 'CLAIM_IN_PROGRESS');
    await recordClaimEvent(ctx, scope, 'claim.closed', claim.id, { by: 'client', id: clientId }, now, { removes: true });
    // Its assets, third party losses, document links and history go with it (on delete cascade).
    await scope.deleteFrom('claims').where('id', '=', claim.id).execute();
    return claim.claim_no;
  });
}
