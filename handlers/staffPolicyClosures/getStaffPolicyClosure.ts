import { staffActor } from '../../server/platform/actor.js';
import { staffClosure } from '../../server/domain/policies/closure-decisions.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A closure request of a client within the caller's reach (404 otherwise). */
export const getStaffPolicyClosure: Handler<'getStaffPolicyClosure'> = async (ctx, req) =>
  ({ data: await staffClosure(ctx.scope, staffActor(ctx), req.params.id) });
