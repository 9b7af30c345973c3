import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { departmentPage } from '../../server/domain/staff/organisation.js';

/** The departments the caller reaches, a page at a time. */
export const listDepartments: Handler<'listDepartments'> = async (ctx, req) => departmentPage(ctx.scope, staffActor(ctx), req.query);
