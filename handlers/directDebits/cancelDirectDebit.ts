import { clientId } from '../../server/platform/actor.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';
import { cancelMandate } from '../../server/domain/money/mandates.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Cancels one of the signed-in client's ACTIVE mandates: no further debit is raised. */
export const cancelDirectDebit: Handler<'cancelDirectDebit'> = async (ctx, req) => {
  const owner = clientId(ctx);
  await cancelMandate(ctx, owner, req.params.id, req.body, { by: 'client', id: owner });
  return { data: await loadDirectDebit(ctx.scope, req.params.id, owner) };
};
