import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { updateBranch as changeBranch } from '../../server/domain/staff/organisation.js';

/** Changes a branch. */
export const updateBranch: Handler<'updateBranch'> = async (ctx, req) =>
  ({ data: await changeBranch(ctx.scope, staffActor(ctx), req.params.branchId, req.body, ctx.clock.now()) });
