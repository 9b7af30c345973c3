import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { deleteDepartment as closeDepartment } from '../../server/domain/staff/organisation.js';

/** Closes a department without staff. */
export const deleteDepartment: Handler<'deleteDepartment'> = async (ctx, req) => {
  await closeDepartment(ctx.scope, staffActor(ctx), req.params.departmentId);
  return { message: 'Department deleted' };
};
