import { staffActor } from '../../server/platform/actor.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';
import { setUpMandateForClient } from '../../server/domain/money/mandates.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Sets up a direct debit mandate for a client within the caller's reach, as the client's own. */
export const createDirectDebitForClient: Handler<'createDirectDebitForClient'> = async (ctx, req) => {
  const id = await setUpMandateForClient(ctx, staffActor(ctx), req.params.id, req.body);
  return { data: await loadDirectDebit(ctx.scope, id, req.params.id) };
};
