import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { withdrawClaim } from '../../server/domain/claims/withdraw.js';

/** Withdraws a claim staff have not started on: ACTIVE, in REVIEW, with no review or settlement. */
export const deleteClaim: Handler<'deleteClaim'> = async (ctx, req) => {
  const claimNo = await withdrawClaim(ctx, clientId(ctx), req.params.id);
  return { message: `Claim ${claimNo} withdrawn` };
};
