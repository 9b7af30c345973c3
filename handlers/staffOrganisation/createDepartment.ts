import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { createDepartment as openDepartment } from '../../server/domain/staff/organisation.js';

/** Opens a department in a branch the caller reaches. */
export const createDepartment: Handler<'createDepartment'> = async (ctx, req) =>
  ({ data: await openDepartment(ctx.scope, staffActor(ctx), req.body, ctx.clock.now()) });
