import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { ownRow } from '../../platform/ownership.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { emit } from '../events/catalogue.js';
import { CLOSED_NOTE, lockInvoicesOfPolicyAlone } from '../money/closed-policy-billing.js';
import { clientInReach } from '../staff/reach.js';
import { moveClosure } from '../states/closure.js';
import { movePolicy } from '../states/policy.js';
import {
  closureColumns, closurePage, companyClosures, toPolicyClosure, type ClosureRow, type PolicyClosure, type StaffClosureListQuery,
} from './closures.js';
import { notifyClient } from '../accounts/notify.js';

export type PolicyClosureApproval = components['schemas']['PolicyClosureApproval'];
export type PolicyClosureRejection = components['schemas']['PolicyClosureRejection'];

/** The closure requests of the clients within a staff member's reach. */
const reachableClosures = (scope: TenantScope, actor: StaffActor) => companyClosures(scope).where(clientInReach('policy_closures.client_id', actor));

/** One page of the closure requests of the clients within the caller's reach, newest first, filtered as asked. */
export const staffClosurePage = (scope: TenantScope, actor: StaffActor, query: StaffClosureListQuery) => closurePage(reachableClosures(scope, actor), query);

/**
 * A closure request of a client within the caller's reach, or 404 (out of reach and other tenants'
 * ids included). `lock` holds the request's row until the transaction ends.
 */
export const reachableClosure = (scope: TenantScope, actor: StaffActor, id: string, options: { lock?: boolean } = {}): Promise<ClosureRow> =>
  ownRow(reachableClosures(scope, actor).select(closureColumns), 'policy_closures', id, 'Policy closure', options);

/** A closure request within the caller's reach, as the contract shows it. */
export const staffClosure = async (scope: TenantScope, actor: StaffActor, id: string): Promise<PolicyClosure> =>
  toPolicyClosure(await reachableClosure(scope, actor, id));

/**
 * Approves a request `PENDING_REVIEW` and closes its policy, all in one transaction: the request
 * is APPROVED by the caller; the policy moves to CANCELLED (the policy machine refuses a state it
 * cannot be cancelled from, 409); then `policyClosure.approved` stops what it owed (its mandates,
 * payments awaiting approval, the unpaid invoice: server/domain/money/closed-policy-billing.ts),
 * and the client is told all that followed. Locks follow the order payments take them: the
 * policy's invoices first, then the request, the policy, its mandates.
 */
export async function approveClosure(ctx: HandlerContext, actor: StaffActor, id: string, body: PolicyClosureApproval): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const found = await reachableClosure(scope, actor, id);
    const invoiceIds = await lockInvoicesOfPolicyAlone(scope, found.policy_id);
    const closure = await reachableClosure(scope, actor, id, { lock: true });
    await moveClosure(scope, { id: closure.id, policyNo: closure.policy_no, status: closure.status }, 'APPROVED',
      { staffId: actor.staffId, at: now, notes: body.notes ?? null });

    const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state']).where('id', '=', closure.policy_id)
      .forUpdate().executeTakeFirstOrThrow();
    const by = { by: 'staff', id: actor.staffId } as const;
    await movePolicy(ctx, scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, 'CANCELLED', by, now, CLOSED_NOTE);
    const outcomes = await emit(ctx, scope, by, {
      type: 'policyClosure.approved', object: { type: 'policyClosure', id: closure.id }, data: { policyId: policy.id, policyNo: policy.policy_no, invoiceIds },
    }, now, { previous: { status: closure.status } });

    await notifyClient(ctx, scope, closure.client_id, {
      title: `Closure of policy ${policy.policy_no} approved`,
      body: `Your request to close policy ${policy.policy_no} was approved: the policy is cancelled`
        + `${outcomes.length > 0 ? `, ${outcomes.join(', ')}` : ''}. Payments already received stay on record with their receipts;`
        + ' we will contact you about any refund due under your policy terms.',
      entity: { name: 'policyClosure', id: closure.id },
    });
  });
  return staffClosure(ctx.scope, actor, id);
}

/**
 * Rejects a request `PENDING_REVIEW` with the caller's reason (kept as the review notes), recorded
 * as `policyClosure.rejected`; the policy is left as it is. The client is told why.
 */
export async function rejectClosure(ctx: HandlerContext, actor: StaffActor, id: string, body: PolicyClosureRejection): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const closure = await reachableClosure(scope, actor, id, { lock: true });
    await moveClosure(scope, { id: closure.id, policyNo: closure.policy_no, status: closure.status }, 'REJECTED',
      { staffId: actor.staffId, at: now, notes: body.reason });
    await emit(ctx, scope, { by: 'staff', id: actor.staffId }, { type: 'policyClosure.rejected', object: { type: 'policyClosure', id: closure.id }, data: {} },
      now, { previous: { status: closure.status } });
    await notifyClient(ctx, scope, closure.client_id, {
      title: `Closure of policy ${closure.policy_no} rejected`,
      body: `Your request to close policy ${closure.policy_no} was not approved: ${body.reason}. The policy carries on as before.`,
      entity: { name: 'policyClosure', id: closure.id },
    });
  });
  return staffClosure(ctx.scope, actor, id);
}
