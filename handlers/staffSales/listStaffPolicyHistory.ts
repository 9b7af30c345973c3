import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { policyHistoryForStaff } from '../../server/domain/policies/lifecycle.js';

/** Every state change of a policy of a client within the caller's reach, oldest first. */
export const listStaffPolicyHistory: Handler<'listStaffPolicyHistory'> = async (ctx, req) =>
  ({ data: await policyHistoryForStaff(ctx.scope, staffActor(ctx), req.params.id) });
