import { staffActor } from '../../server/platform/actor.js';
import { commissionStatement } from '../../server/domain/read-models/commissions.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The commissions earned in a period by the sales within the caller's reach, by staff member, insurer or product. */
export const getCommissionStatement: Handler<'getCommissionStatement'> = async (ctx, req) => ({
  data: await commissionStatement(ctx.scope, staffActor(ctx), req.query),
});
