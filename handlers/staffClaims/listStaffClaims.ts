import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { staffClaimPage } from '../../server/domain/claims/list.js';

/** One page of the claims of the clients within the caller's reach, newest first, filtered as asked. */
export const listStaffClaims: Handler<'listStaffClaims'> = async (ctx, req) => {
  const { claims, paginator } = await staffClaimPage(ctx.scope, staffActor(ctx), req.query);
  return { data: claims, paginator };
};
