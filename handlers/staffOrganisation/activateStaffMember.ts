import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { activateStaffMember as activate } from '../../server/domain/staff/members.js';

/** Lets a deactivated staff member log in again. */
export const activateStaffMember: Handler<'activateStaffMember'> = async (ctx, req) =>
  ({ data: await activate(ctx, staffActor(ctx), req.params.staffId) });
