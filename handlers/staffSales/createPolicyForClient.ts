import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { sellPolicy } from '../../server/domain/policies/staff-sales.js';

/** Sells a policy of any type to a client within the caller's reach. */
export const createPolicyForClient: Handler<'createPolicyForClient'> = async (ctx, req) =>
  ({ data: await sellPolicy(ctx, staffActor(ctx), req.params.id, req.body) });
