import { conflict } from '../../server/errors.js';
import { clientId } from '../auth/session.js';
import type { Handler } from '../types.js';
import { ownPolicyRow, UNPAID_STATUSES } from './view.js';

/**
 * Deletes an unpaid policy with its invoice, assets, state history and closure requests. The row
 * lock makes a payment arriving at the same moment wait, so a paid policy is never deleted.
 */
export const deletePolicy: Handler<'deletePolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const policyNo = await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, req.params.id, owner, { lock: true });
    const paid = await scope.selectFrom('transactions').select('id').where('policy_id', '=', policy.id)
      .where('status', 'not in', UNPAID_STATUSES).executeTakeFirst();
    if (paid) {
      throw conflict(`Policy ${policy.policy_no} has a payment and cannot be deleted here; contact customer support to delete it`, 'POLICY_PAID');
    }
    const renewal = await scope.selectFrom('policies').select('policy_no').where('old_policy_id', '=', policy.id).executeTakeFirst();
    if (renewal) throw conflict(`Policy ${policy.policy_no} is renewed by ${renewal.policy_no}; delete that renewal first`, 'POLICY_RENEWED');
    // Money rows that never received anything still point at the invoice: they go with it.
    await scope.deleteFrom('transactions').where('policy_id', '=', policy.id).execute();
    await scope.deleteFrom('invoices').where('policy_id', '=', policy.id).execute();
    await scope.deleteFrom('policies').where('id', '=', policy.id).execute();
    return policy.policy_no;
  });
  return { message: `Policy ${policyNo} deleted` };
};
