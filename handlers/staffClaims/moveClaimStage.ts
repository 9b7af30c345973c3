import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { moveClaimStage as move } from '../../server/domain/claims/handling.js';

/** Moves a claim to settlement, repudiation or rejection, as its stage machine allows. */
export const moveClaimStage: Handler<'moveClaimStage'> = async (ctx, req) =>
  ({ data: await move(ctx, staffActor(ctx), req.params.id, req.body) });
