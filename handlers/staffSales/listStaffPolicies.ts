import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import { listPoliciesForStaff } from '../../server/domain/policies/staff-sales.js';

/** The policies of the clients within the caller's reach, filtered; a page (by number or after a cursor), all, or an .xlsx export. */
export const listStaffPolicies: Handler<'listStaffPolicies'> = async (ctx, req) => listPoliciesForStaff(ctx, staffActor(ctx), pageOrCursor(req.query, req.sentQuery));
