import { conflict } from '../../server/platform/errors.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { loadDirectDebit, ownDirectDebit } from '../../server/domain/money/direct-debit-view.js';

/**
 * Cancels an ACTIVE mandate: no further debit is raised. The mandate's row is locked, so the
 * due-debit job (which takes it under the same lock) either raised today's debit before or sees
 * it cancelled.
 */
export const cancelDirectDebit: Handler<'cancelDirectDebit'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const debit = await ownDirectDebit(scope, req.params.id, owner, { lock: true });
    if (debit.status !== 'ACTIVE') {
      throw conflict(`The direct debit on policy ${debit.policy_no} is ${debit.status}; only an ACTIVE one can be cancelled`, 'DIRECT_DEBIT_ENDED');
    }
    await scope.updateTable('direct_debits').set({
      status: 'CANCELLED', next_debit_date: null, cancel_reason: req.body.reason, cancelled_at: now, updated_at: now,
    }).where('id', '=', debit.id).execute();
    await notifyClient(ctx, scope, owner, {
      title: `Direct debit for policy ${debit.policy_no} cancelled`,
      body: `No more debits will be taken from ${debit.mobile_number}. Invoice ${debit.invoice_no} can still be paid in the app.`,
      entity: { name: 'directDebit', id: debit.id },
    });
  });
  return { data: await loadDirectDebit(ctx.scope, req.params.id, owner) };
};
