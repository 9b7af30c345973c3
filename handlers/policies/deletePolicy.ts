import { conflict } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { ownPolicyRow } from '../../server/domain/policies/view.js';

/**
 * Deletes an unpaid policy with its invoice, assets, state history and closure requests. Locks are
 * taken as payments take them (the invoice, then the policy), so a payment arriving at the same
 * moment waits and a paid policy is never deleted.
 */
export const deletePolicy: Handler<'deletePolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const policyNo = await ctx.scope.transaction(async (scope) => {
    const found = await ownPolicyRow(scope, req.params.id, owner);
    if (found.invoice_id) await scope.selectFrom('invoices').select('id').where('id', '=', found.invoice_id).forUpdate().execute();
    const policy = await ownPolicyRow(scope, req.params.id, owner, { lock: true });
    if (policy.is_paid) {
      throw conflict(`Policy ${policy.policy_no} has a payment and cannot be deleted here; contact customer support to delete it`, 'POLICY_PAID');
    }
    const renewal = await scope.selectFrom('policies').select('policy_no').where('old_policy_id', '=', policy.id).executeTakeFirst();
    if (renewal) throw conflict(`Policy ${policy.policy_no} is renewed by ${renewal.policy_no}; delete that renewal first`, 'POLICY_RENEWED');
    if (policy.invoice_id) {
      const others = await scope.selectFrom('invoice_items').select('id').where('invoice_id', '=', policy.invoice_id)
        .where('policy_id', '!=', policy.id).executeTakeFirst();
      if (others) {
        throw conflict(`Policy ${policy.policy_no} is billed with other policies on invoice ${policy.invoice_no}; contact customer support to delete it`,
          'BILLED_TOGETHER');
      }
      // Money rows that never received anything still point at the invoice: they go with it.
      await scope.deleteFrom('transactions').where('invoice_id', '=', policy.invoice_id).execute();
      await scope.deleteFrom('invoices').where('id', '=', policy.invoice_id).execute();
    }
    await scope.deleteFrom('policies').where('id', '=', policy.id).execute();
    return policy.policy_no;
  });
  return { message: `Policy ${policyNo} deleted` };
};
