import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { changeClosure } from '../../server/domain/policies/closure-requests.js';

/** Replaces what the client wrote in a request still under review (PUT: omitted optional fields clear). */
export const updatePolicyClosure: Handler<'updatePolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await changeClosure(ctx, owner, req.params.id, req.body, { by: 'client', id: owner }) };
};
