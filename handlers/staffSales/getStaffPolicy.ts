import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { policyForStaff } from '../../server/domain/policies/staff-sales.js';

/** A policy of a client within the caller's reach. */
export const getStaffPolicy: Handler<'getStaffPolicy'> = async (ctx, req) =>
  ({ data: await policyForStaff(ctx.scope, staffActor(ctx), req.params.id) });
