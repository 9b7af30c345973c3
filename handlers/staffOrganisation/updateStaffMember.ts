import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { updateStaffMember as changeStaffMember } from '../../server/domain/staff/members.js';

/** Changes a staff member the caller manages. */
export const updateStaffMember: Handler<'updateStaffMember'> = async (ctx, req) =>
  ({ data: await changeStaffMember(ctx, staffActor(ctx), req.params.staffId, req.body) });
