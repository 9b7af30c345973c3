import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { updateDepartment as changeDepartment } from '../../server/domain/staff/organisation.js';

/** Changes a department the caller reaches. */
export const updateDepartment: Handler<'updateDepartment'> = async (ctx, req) =>
  ({ data: await changeDepartment(ctx.scope, staffActor(ctx), req.params.departmentId, req.body, ctx.clock.now()) });
