import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { staffProfile } from '../../server/domain/staff/view.js';

/** The signed-in staff member, with their department and branch and their newest notifications. */
export const getStaffProfile: Handler<'getStaffProfile'> = async (ctx) => ({ data: await staffProfile(ctx.scope, staffId(ctx)) });
