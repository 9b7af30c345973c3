import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { assertPending, checkDocuments, checkEffectiveDate, ownClosure, toPolicyClosure } from '../../server/domain/policies/closures.js';

/** Replaces what the client wrote in a request still under review (PUT: omitted optional fields clear). */
export const updatePolicyClosure: Handler<'updatePolicyClosure'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const closure = await ownClosure(scope, req.params.id, owner, { lock: true });
    assertPending(closure);
    checkEffectiveDate(body.effectiveDate, closure.policy_end_date, now);
    const documentIds = body.documentIds ?? [];
    await checkDocuments(scope, owner, documentIds);
    await scope.updateTable('policy_closures').set({
      reason: body.reason,
      effective_date: body.effectiveDate,
      notes: body.notes ?? null,
      document_ids: JSON.stringify(documentIds),
      updated_at: now,
    }).where('id', '=', closure.id).execute();
  });
  return { data: toPolicyClosure(await ownClosure(ctx.scope, req.params.id, owner)) };
};
