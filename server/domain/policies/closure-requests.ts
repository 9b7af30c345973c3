import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { reachableClient } from '../clients/staff-clients.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { canTransition } from '../states/machine.js';
import { POLICY_STATES, type StateActor } from '../states/policy.js';
import {
  assertPending, checkDocuments, checkEffectiveDate, guardOnePending, ownClosure, pendingConflict, toPolicyClosure, type PolicyClosure,
} from './closures.js';
import { ownPolicyRow, type PolicyRow } from './view.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';
import { emit } from '../events/catalogue.js';

export type PolicyClosureRequest = components['schemas']['PolicyClosureRequest'];
export type PolicyClosureUpdate = components['schemas']['PolicyClosureUpdate'];

/**
 * Records a request to close one of a client's policies, for staff to review (`policyClosure.requested`),
 * and tells the client. The policy row is locked for the check and the insert, so two requests for
 * one policy cannot both be pending. The request is the client's; a staff `actor` (asking for it at
 * the counter) is recorded as who asked.
 */
export async function requestClosure(ctx: HandlerContext, clientId: string, body: PolicyClosureRequest, actor: StateActor): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  const id = await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, body.policyId, clientId, { lock: true });
    await assertClosable(scope, policy);
    const effectiveDate = body.effectiveDate ?? todayOf(now).date;
    checkEffectiveDate(effectiveDate, policy.end_date, now);
    const documentIds = body.documentIds ?? [];
    await checkDocuments(scope, clientId, documentIds);

    const closure = await guardOnePending(policy.policy_no, () => scope.insertInto('policy_closures', {
      policy_id: policy.id,
      client_id: clientId,
      reason: body.reason,
      effective_date: effectiveDate,
      notes: body.notes ?? null,
      document_ids: JSON.stringify(documentIds),
      requested_by_staff_id: actor.by === 'staff' ? actor.id : null,
      created_at: now,
      updated_at: now,
    }).returning('id').executeTakeFirstOrThrow());
    await emit(ctx, scope, actor, { type: 'policyClosure.requested', object: { type: 'policyClosure', id: closure.id }, data: {} }, now);

    await notifyClient(ctx, scope, clientId, {
      title: `Closure of policy ${policy.policy_no} requested`,
      body: `We received your request to close policy ${policy.policy_no} from ${effectiveDate}. We will tell you when it has been reviewed.`,
      entity: { name: 'policyClosure', id: closure.id },
    });
    return closure.id;
  });
  return toPolicyClosure(await ownClosure(ctx.scope, id, clientId));
}

/** Asks, for a client within the caller's reach (404 otherwise), to close one of its policies, exactly as the client's own request, asked by the caller. */
export async function requestClosureForClient(ctx: HandlerContext, actor: StaffActor, clientId: string, body: PolicyClosureRequest): Promise<PolicyClosure> {
  await reachableClient(ctx.scope, actor, clientId);
  return requestClosure(ctx, clientId, body, { by: 'staff', id: actor.staffId });
}

/** Closable means staff could cancel it from where it is (approval is that cancellation), with no other request pending. */
async function assertClosable(scope: TenantScope, policy: PolicyRow) {
  if (!canTransition(POLICY_STATES, policy.state, 'CANCELLED', 'staff')) {
    throw conflict(`Policy ${policy.policy_no} is ${policy.state} and cannot be closed`, 'NOT_CLOSABLE');
  }
  const pending = await scope.selectFrom('policy_closures').select('id')
    .where('policy_id', '=', policy.id).where('status', '=', 'PENDING_REVIEW').executeTakeFirst();
  if (pending) throw pendingConflict(policy.policy_no);
}

/**
 * Replaces what was written in a request still under review (omitted optional fields clear), the
 * request's row locked so a review cannot slip in. `actor` (who asks) is not recorded.
 */
export async function changeClosure(ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string, closureId: string, body: PolicyClosureUpdate, actor: StateActor): Promise<PolicyClosure> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const closure = await ownClosure(scope, closureId, clientId, { lock: true });
    assertPending(closure);
    checkEffectiveDate(body.effectiveDate, closure.policy_end_date, now);
    const documentIds = body.documentIds ?? [];
    await checkDocuments(scope, clientId, documentIds);
    await scope.updateTable('policy_closures').set({
      reason: body.reason,
      effective_date: body.effectiveDate,
      notes: body.notes ?? null,
      document_ids: JSON.stringify(documentIds),
      updated_at: now,
    }).where('id', '=', closure.id).execute();
  });
  return toPolicyClosure(await ownClosure(ctx.scope, closureId, clientId));
}

/** Withdraws a request still under review, answering its policy's number; reviewed ones stay on record. `actor` is not recorded. */
export async function withdrawClosure(scope: TenantScope, clientId: string, closureId: string, actor: StateActor): Promise<string> {
  return scope.transaction(async (tx) => {
    const closure = await ownClosure(tx, closureId, clientId, { lock: true });
    assertPending(closure);
    await tx.deleteFrom('policy_closures').where('id', '=', closure.id).execute();
    return closure.policy_no;
  });
}
