import { staffActor } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { staffClaimPage } from '../../server/domain/claims/list.js';

/** One page of the claims of the clients within the caller's reach, newest first, filtered as asked. */
export const listStaffClaims: Handler<'listStaffClaims'> = async (ctx, req) => {
  const { claims, paginator } = await staffClaimPage(ctx.scope, staffActor(ctx), pageOrCursor(req.query, req.sentQuery));
  return { data: claims, paginator };
};
