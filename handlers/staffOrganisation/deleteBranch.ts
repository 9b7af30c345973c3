import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { deleteBranch as closeBranch } from '../../server/domain/staff/organisation.js';

/** Closes a branch without departments. */
export const deleteBranch: Handler<'deleteBranch'> = async (ctx, req) => {
  await closeBranch(ctx.scope, staffActor(ctx), req.params.branchId);
  return { message: 'Branch deleted' };
};
