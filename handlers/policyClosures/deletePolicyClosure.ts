import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { withdrawClosure } from '../../server/domain/policies/closure-requests.js';

/** Withdraws a request still under review; reviewed ones stay on record. */
export const deletePolicyClosure: Handler<'deletePolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const policyNo = await withdrawClosure(ctx.scope, owner, req.params.id, { by: 'client', id: owner });
  return { message: `Closure request for policy ${policyNo} withdrawn` };
};
