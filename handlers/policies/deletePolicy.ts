import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { deleteUnpaidPolicy } from '../../server/domain/policies/delete.js';

/** Deletes one of the signed-in client's unpaid policies with its invoice, assets, state history and closure requests. */
export const deletePolicy: Handler<'deletePolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const policyNo = await deleteUnpaidPolicy(ctx, owner, req.params.id, { by: 'client', id: owner });
  return { message: `Policy ${policyNo} deleted` };
};
