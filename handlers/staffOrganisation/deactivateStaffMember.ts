import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { deactivateStaffMember as deactivate } from '../../server/domain/staff/members.js';

/** Stops a staff member: no login, every token revoked, reset codes retired. */
export const deactivateStaffMember: Handler<'deactivateStaffMember'> = async (ctx, req) =>
  ({ data: await deactivate(ctx, staffActor(ctx), req.params.staffId) });
