import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { createBranch as openBranch } from '../../server/domain/staff/organisation.js';

/** Opens a branch of the company. */
export const createBranch: Handler<'createBranch'> = async (ctx, req) =>
  ({ data: await openBranch(ctx.scope, staffActor(ctx), req.body, ctx.clock.now()) });
