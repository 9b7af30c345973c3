import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { findDepartment } from '../../server/domain/staff/organisation.js';

/** One department the caller reaches, with its branch. */
export const getDepartment: Handler<'getDepartment'> = async (ctx, req) =>
  ({ data: await findDepartment(ctx.scope, staffActor(ctx), req.params.departmentId) });
