import { staffActor } from '../../server/platform/actor.js';
import { approveClosure } from '../../server/domain/policies/closure-decisions.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Approves a closure request under review: its policy is cancelled, its debits stopped, its unpaid invoice closed. */
export const approvePolicyClosure: Handler<'approvePolicyClosure'> = async (ctx, req) =>
  ({ data: await approveClosure(ctx, staffActor(ctx), req.params.id, req.body ?? {}) });
