import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { reviewClaim as review } from '../../server/domain/claims/handling.js';

/** Records the caller's review of a claim in REVIEW. */
export const reviewClaim: Handler<'reviewClaim'> = async (ctx, req) =>
  ({ data: await review(ctx, staffActor(ctx), req.params.id, req.body) });
