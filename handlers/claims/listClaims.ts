import { clientId } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { claimPage } from '../../server/domain/claims/list.js';

/** One page of the signed-in client's claims, newest first, filtered as asked. */
export const listClaims: Handler<'listClaims'> = async (ctx, req) => {
  const { claims, paginator } = await claimPage(ctx.scope, clientId(ctx), pageOrCursor(req.query, req.sentQuery));
  return { data: claims, paginator };
};
