import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import type { PolicyState } from '../../platform/db/schema.js';
import { conflict } from '../../platform/errors.js';
import { ownRow } from '../../platform/ownership.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { invoiceFigures, paymentSums } from '../money/figures.js';
import { staffFullName, staffReference } from '../staff/names.js';
import { assertTransition } from '../states/machine.js';
import { movePolicy, POLICY_STATES } from '../states/policy.js';
import { policyForStaff } from './staff-sales.js';
import { invoiceDraft } from './update.js';
import type { Policy } from './view.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';

export type PolicyStateMove = components['schemas']['PolicyStateMove'];
export type PolicyStateChange = components['schemas']['PolicyStateChange'];
export type ClientPolicyStateChange = components['schemas']['ClientPolicyStateChange'];

/**
 * Staff-only policy states and a policy's history (docs/docs/state-machines.md). Staff move a policy as
 * POLICY_STATES allows a `staff` mover; the states that mean the policy covers its client
 * (`ACTIVE`, `INACTIVE`) need its invoice paid in full, and its start date to agree.
 */

/** A policy's invoices (its own or a cart checkout's) neither paid in full nor closed, with what each still owes. */
export async function unpaidInvoicesOf(scope: TenantScope, policyId: string) {
  const invoices = await scope.selectFrom('invoice_items').innerJoin('invoices', 'invoices.id', 'invoice_items.invoice_id')
    .select(['invoices.id', 'invoices.invoice_no', 'invoices.currency', 'invoices.amount', 'invoices.exchange_rate', 'invoices.voided_at', 'invoices.void_reason'])
    .where('invoice_items.policy_id', '=', policyId).execute();
  const sums = await paymentSums(scope, invoices.map((invoice) => invoice.id));
  return invoices.flatMap((invoice) => {
    const paid = sums.get(invoice.id)!;
    // A closed (voided) invoice owes nothing more, as the invoice itself says.
    return invoiceFigures(invoice.amount, invoice.exchange_rate, paid, invoice).isClosed ? []
      : [{ invoiceNo: invoice.invoice_no, currency: invoice.currency, unpaid: new Decimal(invoice.amount).minus(paid.confirmed) }];
  });
}

/** `ACTIVE` and `INACTIVE` by staff: the invoice paid in full (confirmed money), and the state the start date calls for. */
async function assertCovers(scope: TenantScope, policy: { id: string; policy_no: string; start_date: string }, to: PolicyState, today: string) {
  const [unpaid] = await unpaidInvoicesOf(scope, policy.id);
  if (unpaid) {
    throw conflict(`Policy ${policy.policy_no} cannot be ${to}: its invoice ${unpaid.invoiceNo} is not paid in full (${unpaid.currency} ${unpaid.unpaid.toFixed(2)} unpaid)`,
      'INVOICE_UNPAID');
  }
  if (to === 'ACTIVE' && policy.start_date > today) {
    throw conflict(`Policy ${policy.policy_no} starts on ${policy.start_date}: move it to INACTIVE (it becomes ACTIVE on its start date)`, 'START_DATE_AHEAD');
  }
  if (to === 'INACTIVE' && policy.start_date <= today) {
    throw conflict(`Policy ${policy.policy_no} started on ${policy.start_date}: move it to ACTIVE`, 'START_DATE_PASSED');
  }
}

/**
 * Moves a policy of a client within the caller's reach to `body.state`, recorded with the caller
 * and the notes, and tells the client; all in one transaction, under the policy's row lock.
 */
export async function movePolicyForStaff(ctx: HandlerContext, actor: StaffActor, policyId: string, body: PolicyStateMove): Promise<Policy> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    await policyForStaff(scope, actor, policyId); // 404 out of reach
    const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state', 'start_date', 'client_id', 'currency', 'exchange_rate', 'premium'])
      .where('id', '=', policyId).forUpdate().executeTakeFirstOrThrow();
    assertTransition(POLICY_STATES, `Policy ${policy.policy_no}`, policy.state, body.state, 'staff');
    if (body.state === 'ACTIVE' || body.state === 'INACTIVE') await assertCovers(scope, policy, body.state, todayOf(now).date);
    const by = { by: 'staff' as const, id: actor.staffId };
    if (policy.state === 'DRAFT' && body.state === 'PROCESSING') {
      // PROCESSING means invoiced: a draft's invoice is raised on the way, as its client's own generateInvoice does.
      await invoiceDraft(ctx, scope, { clientId: policy.client_id, policy, premium: new Decimal(policy.premium), actor: by, today: todayOf(now), now, notes: body.notes });
    } else {
      await movePolicy(scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, body.state, by, now, body.notes);
    }
    await notifyClient(ctx, scope, policy.client_id, {
      title: `Policy ${policy.policy_no} is now ${body.state}`,
      body: `Your policy ${policy.policy_no} moved from ${policy.state} to ${body.state}: ${body.notes}`,
      entity: { name: 'policy', id: policy.id },
    });
  });
  return policyForStaff(ctx.scope, actor, policyId);
}

/** Every state change of a policy, oldest first, with the staff member who made it (when one did). */
function changesOf(scope: TenantScope, policyId: string) {
  return scope.selectFrom('policy_state_changes')
    .leftJoin('staff', (join) => join.onRef('staff.id', '=', 'policy_state_changes.actor_id').on('policy_state_changes.actor_kind', '=', 'staff'))
    .select(['policy_state_changes.from_state', 'policy_state_changes.to_state', 'policy_state_changes.notes', 'policy_state_changes.actor_kind',
      'policy_state_changes.created_at', 'staff.id as staff_id', 'staff.first_name', 'staff.other_names', 'staff.last_name', 'staff.email'])
    .where('policy_state_changes.policy_id', '=', policyId)
    .orderBy('policy_state_changes.seq')
    .execute();
}

type ChangeRow = Awaited<ReturnType<typeof changesOf>>[number];
type StaffOf<C> = C extends { by: { staff?: infer S } } ? NonNullable<S> : never;

/** Rows -> history entries, the staff member shown by `show` (a full reference to staff, a name to clients). */
function toHistory<C>(rows: ChangeRow[], show: (member: { id: string; first_name: string; other_names: string | null; last_name: string; email: string }) => StaffOf<C>): C[] {
  return rows.map((row) => ({
    from: row.from_state,
    to: row.to_state,
    notes: row.notes,
    at: row.created_at.toISOString(),
    by: {
      kind: row.actor_kind,
      ...(row.actor_kind === 'staff' && row.staff_id !== null
        ? { staff: show({ id: row.staff_id, first_name: row.first_name!, other_names: row.other_names, last_name: row.last_name!, email: row.email! }) }
        : {}),
    },
  }) as C);
}

/** The history of a policy of a client within the caller's reach (404 otherwise), staff named in full. */
export async function policyHistoryForStaff(scope: TenantScope, actor: StaffActor, policyId: string): Promise<PolicyStateChange[]> {
  await policyForStaff(scope, actor, policyId);
  return toHistory<PolicyStateChange>(await changesOf(scope, policyId), staffReference);
}

/** The history of one of the client's own policies (404 otherwise); staff appear by id and name only. */
export async function policyHistoryForClient(scope: TenantScope, clientId: string, policyId: string): Promise<ClientPolicyStateChange[]> {
  await ownRow(scope.selectFrom('policies').select('policies.id').where('policies.client_id', '=', clientId), 'policies', policyId, 'Policy');
  return toHistory<ClientPolicyStateChange>(await changesOf(scope, policyId),
    (member) => ({ name: 'staff', id: member.id, fullName: staffFullName(member) }));
}
