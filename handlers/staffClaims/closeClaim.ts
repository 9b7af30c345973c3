import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { closeClaim as close } from '../../server/domain/claims/handling.js';

/** Closes a settled or rejected claim still open. */
export const closeClaim: Handler<'closeClaim'> = async (ctx, req) =>
  ({ data: await close(ctx, staffActor(ctx), req.params.id, req.body.notes) });
