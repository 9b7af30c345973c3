import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { staffPage } from '../../server/domain/staff/members.js';

/** The staff members the caller reaches, filtered, a page at a time. */
export const listStaffMembers: Handler<'listStaffMembers'> = async (ctx, req) => staffPage(ctx.scope, staffActor(ctx), req.query);
