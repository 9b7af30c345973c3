import { todayOf } from '../../platform/clock.js';
import type { EventServices } from '../../platform/events.js';
import type { TransactionScope } from '../../platform/tenancy.js';
import { movePolicy } from '../states/policy.js';

/**
 * The policies an invoice bills, paid in full (`invoice.paid`): each one still `PROCESSING` (or
 * `AWAITING_DEBIT`, paid under a direct debit) becomes `ACTIVE`, or `INACTIVE` until its start
 * date (docs/docs/state-machines.md). Policies staff hold elsewhere stay put.
 */
export async function activatePaidPolicies(services: EventServices, scope: TransactionScope, invoiceId: string, at: Date) {
  const today = todayOf(at).date;
  const policies = await scope.selectFrom('invoice_items').innerJoin('policies', 'policies.id', 'invoice_items.policy_id')
    .select(['policies.id', 'policies.policy_no', 'policies.state', 'policies.start_date'])
    .where('invoice_items.invoice_id', '=', invoiceId).where('policies.state', 'in', ['PROCESSING', 'AWAITING_DEBIT'])
    .forUpdate('policies').execute();
  for (const policy of policies) {
    await movePolicy(services, scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, policy.start_date <= today ? 'ACTIVE' : 'INACTIVE',
      { by: 'system', id: null }, at, 'Invoice paid in full');
  }
}

/** A direct debit was set up on the policy (`directDebit.created`): a `PROCESSING` one now waits for its debits. */
export async function awaitDebits(services: EventServices, scope: TransactionScope, policyId: string, at: Date) {
  const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state']).where('id', '=', policyId).forUpdate().executeTakeFirstOrThrow();
  if (policy.state !== 'PROCESSING') return;
  await movePolicy(services, scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, 'AWAITING_DEBIT', { by: 'system', id: null }, at,
    'Direct debit set up');
}
