import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { requestClosure } from '../../server/domain/policies/closure-requests.js';

/** Records the signed-in client's request to close one of its policies, for staff to review. */
export const requestPolicyClosure: Handler<'requestPolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await requestClosure(ctx, owner, req.body, { by: 'client', id: owner }) };
};
