import { staffActor } from '../../server/platform/actor.js';
import { staffClosurePage } from '../../server/domain/policies/closure-decisions.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of the closure requests of the clients within the caller's reach, newest first, filtered as asked. */
export const listStaffPolicyClosures: Handler<'listStaffPolicyClosures'> = async (ctx, req) =>
  staffClosurePage(ctx.scope, staffActor(ctx), pageOrCursor(req.query, req.sentQuery));
