import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { fileClaimForClient } from '../../server/domain/claims/file.js';
import { claimForStaff } from '../../server/domain/claims/handling.js';

/** Files a claim for a client within the caller's reach, as the client's own, filed by the caller. */
export const createClaimForClient: Handler<'createClaimForClient'> = async (ctx, req) => {
  const actor = staffActor(ctx);
  const id = await fileClaimForClient(ctx, actor, req.params.id, req.body);
  return { data: await claimForStaff(ctx.scope, actor, id) };
};
