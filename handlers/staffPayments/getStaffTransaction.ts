import { staffActor } from '../../server/platform/actor.js';
import { loadStaffTransaction } from '../../server/domain/money/staff-payments.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One payment of a client within the caller's reach, with who reviewed it. */
export const getStaffTransaction: Handler<'getStaffTransaction'> = async (ctx, req) =>
  ({ data: await loadStaffTransaction(ctx.scope, staffActor(ctx), req.params.id, ctx.clock.now()) });
