import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { claimForStaff } from '../../server/domain/claims/handling.js';

/** One claim of a client within the caller's reach. */
export const getStaffClaim: Handler<'getStaffClaim'> = async (ctx, req) =>
  ({ data: await claimForStaff(ctx.scope, staffActor(ctx), req.params.id) });
