import { staffActor } from '../../server/platform/actor.js';
import { rejectClosure } from '../../server/domain/policies/closure-decisions.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Rejects a closure request under review, with the reason the client is told; the policy carries on. */
export const rejectPolicyClosure: Handler<'rejectPolicyClosure'> = async (ctx, req) =>
  ({ data: await rejectClosure(ctx, staffActor(ctx), req.params.id, req.body) });
