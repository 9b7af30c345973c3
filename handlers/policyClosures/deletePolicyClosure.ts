import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { assertPending, ownClosure } from '../../server/domain/policies/closures.js';

/** Withdraws a request still under review; reviewed ones stay on record. */
export const deletePolicyClosure: Handler<'deletePolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const policyNo = await ctx.scope.transaction(async (scope) => {
    const closure = await ownClosure(scope, req.params.id, owner, { lock: true });
    assertPending(closure);
    await scope.deleteFrom('policy_closures').where('id', '=', closure.id).execute();
    return closure.policy_no;
  });
  return { message: `Closure request for policy ${policyNo} withdrawn` };
};
