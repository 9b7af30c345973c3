import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { movePolicyForStaff } from '../../server/domain/policies/lifecycle.js';

/** Moves a policy of a client within the caller's reach to a staff-only state (or out of one). */
export const movePolicyState: Handler<'movePolicyState'> = async (ctx, req) =>
  ({ data: await movePolicyForStaff(ctx, staffActor(ctx), req.params.id, req.body) });
