import type { HandlerContext } from '../../platform/context.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { emit } from '../events/catalogue.js';
import type { StateActor } from '../states/policy.js';
import { ownPolicyRow, type PolicyRow } from './view.js';

/**
 * Deletes a client's unpaid policy with its invoice, assets, state history and closure requests,
 * answering its number. Locks are taken as payments take them (the invoice, then the policy), so
 * a payment arriving at the same moment waits and a paid policy is never deleted. The invoice is
 * closed unpaid for good: `invoice.closed` by `actor`, recorded just before the delete, holds it as
 * it was last answered.
 */
export async function deleteUnpaidPolicy(ctx: Pick<HandlerContext, 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>, clientId: string, policyId: string,
  actor: StateActor): Promise<string> {
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (tx) => {
    const found = await ownPolicyRow(tx, policyId, clientId);
    if (found.invoice_id) await tx.selectFrom('invoices').select('id').where('id', '=', found.invoice_id).forUpdate().execute();
    const policy = await ownPolicyRow(tx, policyId, clientId, { lock: true });
    await assertDeletable(tx, policy);
    if (policy.invoice_id) {
      await emit(ctx, tx, actor, { type: 'invoice.closed', object: { type: 'invoice', id: policy.invoice_id }, data: {} }, now, { removes: true });
      // Money rows that never received anything still point at the invoice: they go with it.
      await tx.deleteFrom('transactions').where('invoice_id', '=', policy.invoice_id).execute();
      await tx.deleteFrom('invoices').where('id', '=', policy.invoice_id).execute();
    }
    await tx.deleteFrom('policies').where('id', '=', policy.id).execute();
    return policy.policy_no;
  });
}

/** Only a policy nothing was paid for, renewed by none, and billed alone may go. */
async function assertDeletable(scope: TenantScope, policy: PolicyRow) {
  if (policy.is_paid) {
    throw conflict(`Policy ${policy.policy_no} has a payment and cannot be deleted here; contact customer support to delete it`, 'POLICY_PAID');
  }
  const renewal = await scope.selectFrom('policies').select('policy_no').where('old_policy_id', '=', policy.id).executeTakeFirst();
  if (renewal) throw conflict(`Policy ${policy.policy_no} is renewed by ${renewal.policy_no}; delete that renewal first`, 'POLICY_RENEWED');
  if (!policy.invoice_id) return;
  const others = await scope.selectFrom('invoice_items').select('id').where('invoice_id', '=', policy.invoice_id)
    .where('policy_id', '!=', policy.id).executeTakeFirst();
  if (others) {
    throw conflict(`Policy ${policy.policy_no} is billed with other policies on invoice ${policy.invoice_no}; contact customer support to delete it`,
      'BILLED_TOGETHER');
  }
}
