import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { ownRow } from '../../platform/ownership.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { notifyClient } from '../clients/notifications.js';
import { cancelActiveMandate } from '../money/direct-debits.js';
import { invoiceFigures, paymentSums } from '../money/figures.js';
import { lockInvoice } from '../money/payments.js';
import { clientInReach } from '../staff/reach.js';
import { moveClosure } from '../states/closure.js';
import { movePolicy } from '../states/policy.js';
import { moveTransaction } from '../states/transaction.js';
import {
  closureColumns, closurePage, companyClosures, toPolicyClosure, type ClosureRow, type PolicyClosure, type StaffClosureListQuery,
} from './closures.js';

export type PolicyClosureApproval = components['schemas']['PolicyClosureApproval'];
export type PolicyClosureRejection = components['schemas']['PolicyClosureRejection'];

/** What an approval writes in every record it leaves: the policy's history, its mandates, its rejected payments. */
export const CLOSED_NOTE = 'Policy closed';

/** The closure requests of the clients within a staff member's reach. */
const reachableClosures = (scope: TenantScope, actor: StaffActor) => companyClosures(scope).where(clientInReach('policy_closures.client_id', actor));

/** One page of the closure requests of the clients within the caller's reach, newest first, filtered as asked. */
export const staffClosurePage = (scope: TenantScope, actor: StaffActor, query: StaffClosureListQuery) => closurePage(reachableClosures(scope, actor), query);

/**
 * A closure request of a client within the caller's reach, or 404 (out of reach and other tenants'
 * ids included). `lock` holds the request's row for the caller's transaction.
 */
export const reachableClosure = (scope: TenantScope, actor: StaffActor, id: string, options: { lock?: boolean } = {}): Promise<ClosureRow> =>
  ownRow(reachableClosures(scope, actor).select(closureColumns), 'policy_closures', id, 'Policy closure', options);

/** A closure request within the caller's reach, as the contract shows it. */
export const staffClosure = async (scope: TenantScope, actor: StaffActor, id: string): Promise<PolicyClosure> =>
  toPolicyClosure(await reachableClosure(scope, actor, id));

/**
 * Approves a request `PENDING_REVIEW` and closes its policy, all in one transaction: the request
 * is APPROVED by the caller; the policy moves to CANCELLED (the policy machine refuses a state it
 * cannot be cancelled from, 409); its ACTIVE mandates are cancelled; on each invoice billing this
 * policy alone, payments still PENDING_APPROVAL are rejected and, unless confirmed money covers
 * it, the invoice is voided (nothing left to pay; the unpaid remainder is written off). Confirmed
 * money stays as it is: refunds are the company's business outside the API. The client is told.
 * Locks follow the order payments take them: invoices, then the request, the policy, its mandates.
 */
export async function approveClosure(ctx: HandlerContext, actor: StaffActor, id: string, body: PolicyClosureApproval): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const found = await reachableClosure(scope, actor, id);
    const invoices = [];
    for (const invoiceId of await invoicesOfPolicyAlone(scope, found.policy_id)) invoices.push((await lockInvoice(scope, invoiceId))!);
    const closure = await reachableClosure(scope, actor, id, { lock: true });
    await moveClosure(scope, { id: closure.id, policyNo: closure.policy_no, status: closure.status }, 'APPROVED',
      { staffId: actor.staffId, at: now, notes: body.notes ?? null });

    const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state']).where('id', '=', closure.policy_id)
      .forUpdate().executeTakeFirstOrThrow();
    await movePolicy(scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, 'CANCELLED',
      { by: 'staff', id: actor.staffId }, now, CLOSED_NOTE);

    const mandates = await scope.selectFrom('direct_debits').select('id').where('policy_id', '=', policy.id).where('status', '=', 'ACTIVE')
      .orderBy('id').forUpdate().execute();
    for (const mandate of mandates) await cancelActiveMandate(scope, mandate.id, CLOSED_NOTE, now);

    const closed: string[] = [];
    let rejected = 0;
    for (const invoice of invoices) {
      const pending = await scope.selectFrom('transactions').select(['id', 'transaction_no', 'status'])
        .where('invoice_id', '=', invoice.id).where('status', '=', 'PENDING_APPROVAL').orderBy('created_at').orderBy('id').execute();
      for (const tx of pending) {
        await moveTransaction(scope, { id: tx.id, transactionNo: tx.transaction_no, status: tx.status }, 'REJECTED',
          { by: 'staff', id: actor.staffId }, now, CLOSED_NOTE);
      }
      rejected += pending.length;
      const figures = invoiceFigures(invoice.amount, invoice.exchange_rate, (await paymentSums(scope, [invoice.id])).get(invoice.id)!, invoice);
      if (figures.isClosed) continue;
      await scope.updateTable('invoices').set({ voided_at: now, void_reason: `Policy ${policy.policy_no} closed`, updated_at: now })
        .where('id', '=', invoice.id).execute();
      closed.push(`invoice ${invoice.invoice_no} is closed and the ${invoice.currency} ${new Decimal(figures.amountUnpaid).toFixed(2)} unpaid on it is written off`);
    }

    const outcomes = [
      ...(mandates.length > 0 ? ['its direct debit is cancelled'] : []),
      ...(rejected > 0 ? [`${rejected} payment${rejected === 1 ? '' : 's'} awaiting approval ${rejected === 1 ? 'is' : 'are'} rejected`] : []),
      ...closed,
    ];
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

/** Rejects a request `PENDING_REVIEW` with the caller's reason (kept as the review notes); the policy is left as it is. The client is told why. */
export async function rejectClosure(ctx: HandlerContext, actor: StaffActor, id: string, body: PolicyClosureRejection): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const closure = await reachableClosure(scope, actor, id, { lock: true });
    await moveClosure(scope, { id: closure.id, policyNo: closure.policy_no, status: closure.status }, 'REJECTED',
      { staffId: actor.staffId, at: now, notes: body.reason });
    await notifyClient(ctx, scope, closure.client_id, {
      title: `Closure of policy ${closure.policy_no} rejected`,
      body: `Your request to close policy ${closure.policy_no} was not approved: ${body.reason}. The policy carries on as before.`,
      entity: { name: 'policyClosure', id: closure.id },
    });
  });
  return staffClosure(ctx.scope, actor, id);
}

/**
 * The invoices billing this policy and no other, in id order (the order they are locked in). A
 * cart checkout's invoice that bills other policies too stays open: their premiums are still owed.
 */
async function invoicesOfPolicyAlone(scope: TenantScope, policyId: string): Promise<string[]> {
  const billing = (await scope.selectFrom('invoice_items').select('invoice_id').where('policy_id', '=', policyId).execute()).map((i) => i.invoice_id);
  if (billing.length === 0) return [];
  const shared = new Set((await scope.selectFrom('invoice_items').select('invoice_id').where('invoice_id', 'in', billing)
    .where('policy_id', '<>', policyId).execute()).map((i) => i.invoice_id));
  return [...new Set(billing)].filter((invoiceId) => !shared.has(invoiceId)).sort();
}
