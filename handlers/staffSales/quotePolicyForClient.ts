import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { quoteForClient } from '../../server/domain/policies/staff-sales.js';

/** Prices a policy for a client within the caller's reach, writing nothing. */
export const quotePolicyForClient: Handler<'quotePolicyForClient'> = async (ctx, req) =>
  ({ data: await quoteForClient(ctx, staffActor(ctx), req.params.id, req.body) });
