import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { settleClaim as settle } from '../../server/domain/claims/handling.js';

/** Records the payment that settles a claim in SETTLEMENT, which settles and closes it. */
export const settleClaim: Handler<'settleClaim'> = async (ctx, req) =>
  ({ data: await settle(ctx, staffActor(ctx), req.params.id, req.body) });
