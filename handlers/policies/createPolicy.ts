import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { issuePolicy } from '../../server/domain/policies/issue.js';

/** Creates a policy of any type for the signed-in client (the body is chosen by `policyType`). */
export const createPolicy: Handler<'createPolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await issuePolicy(ctx, owner, req.body, { by: 'client', id: owner }) };
};
