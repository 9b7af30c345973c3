import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { findStaffMember } from '../../server/domain/staff/members.js';

/** One staff member the caller reaches. */
export const getStaffMember: Handler<'getStaffMember'> = async (ctx, req) =>
  ({ data: await findStaffMember(ctx.scope, staffActor(ctx), req.params.staffId) });
