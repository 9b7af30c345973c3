import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { findBranch } from '../../server/domain/staff/organisation.js';

/** One branch the caller reaches. */
export const getBranch: Handler<'getBranch'> = async (ctx, req) =>
  ({ data: await findBranch(ctx.scope, staffActor(ctx), req.params.branchId) });
