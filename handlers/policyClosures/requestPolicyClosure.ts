import { notifyClient } from '../../server/domain/clients/notifications.js';
import { canTransition } from '../../server/domain/states/machine.js';
import { POLICY_STATES } from '../../server/domain/states/policy.js';
import { conflict } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import { todayOf } from '../../server/domain/policies/rules.js';
import { ownPolicyRow } from '../../server/domain/policies/view.js';
import type { Handler } from '../types.js';
import { checkDocuments, checkEffectiveDate, guardOnePending, ownClosure, pendingConflict, toPolicyClosure } from '../../server/domain/policies/closures.js';

/**
 * Records a client's request to close one of its policies, for staff to review. The policy row is
 * locked for the check and the insert, so two requests for one policy cannot both be pending.
 */
export const requestPolicyClosure: Handler<'requestPolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  const id = await ctx.scope.transaction(async (scope) => {
    const policy = await ownPolicyRow(scope, body.policyId, owner, { lock: true });
    // Closable means staff could cancel it from where it is: approval is that cancellation.
    if (!canTransition(POLICY_STATES, policy.state, 'CANCELLED', 'staff')) {
      throw conflict(`Policy ${policy.policy_no} is ${policy.state} and cannot be closed`, 'NOT_CLOSABLE');
    }
    const pending = await scope.selectFrom('policy_closures').select('id')
      .where('policy_id', '=', policy.id).where('status', '=', 'PENDING_REVIEW').executeTakeFirst();
    if (pending) throw pendingConflict(policy.policy_no);
    const effectiveDate = body.effectiveDate ?? todayOf(now).date;
    checkEffectiveDate(effectiveDate, policy.end_date, now);
    const documentIds = body.documentIds ?? [];
    await checkDocuments(scope, owner, documentIds);

    const closure = await guardOnePending(policy.policy_no, () => scope.insertInto('policy_closures', {
      policy_id: policy.id,
      client_id: owner,
      reason: body.reason,
      effective_date: effectiveDate,
      notes: body.notes ?? null,
      document_ids: JSON.stringify(documentIds),
      created_at: now,
      updated_at: now,
    }).returning('id').executeTakeFirstOrThrow());

    await notifyClient(ctx, scope, owner, {
      title: `Closure of policy ${policy.policy_no} requested`,
      body: `We received your request to close policy ${policy.policy_no} from ${effectiveDate}. We will tell you when it has been reviewed.`,
      entity: { name: 'policyClosure', id: closure.id },
    });
    return closure.id;
  });
  return { data: toPolicyClosure(await ownClosure(ctx.scope, id, owner)) };
};
