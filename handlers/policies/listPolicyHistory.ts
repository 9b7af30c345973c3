import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { policyHistoryForClient } from '../../server/domain/policies/lifecycle.js';

/** Every state change of one of the signed-in client's policies, oldest first. */
export const listPolicyHistory: Handler<'listPolicyHistory'> = async (ctx, req) =>
  ({ data: await policyHistoryForClient(ctx.scope, clientId(ctx), req.params.id) });
