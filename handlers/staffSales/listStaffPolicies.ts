import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { listPoliciesForStaff } from '../../server/domain/policies/staff-sales.js';

/** The policies of the clients within the caller's reach, filtered; a page, all, or an .xlsx export. */
export const listStaffPolicies: Handler<'listStaffPolicies'> = async (ctx, req) => listPoliciesForStaff(ctx, staffActor(ctx), req.query);
