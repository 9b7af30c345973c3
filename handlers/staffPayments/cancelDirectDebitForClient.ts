import { staffActor } from '../../server/platform/actor.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';
import { cancelMandateForClient } from '../../server/domain/money/mandates.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Cancels an ACTIVE mandate of a client within the caller's reach, as the client's own cancellation. */
export const cancelDirectDebitForClient: Handler<'cancelDirectDebitForClient'> = async (ctx, req) => {
  const clientId = await cancelMandateForClient(ctx, staffActor(ctx), req.params.id, req.body);
  return { data: await loadDirectDebit(ctx.scope, req.params.id, clientId) };
};
