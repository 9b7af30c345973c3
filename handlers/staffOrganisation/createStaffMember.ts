import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { createStaffMember as addStaffMember } from '../../server/domain/staff/members.js';

/** Adds a staff member (with a first password, or sending them a code to set one). */
export const createStaffMember: Handler<'createStaffMember'> = async (ctx, req) =>
  ({ data: await addStaffMember(ctx, staffActor(ctx), req.body) });
