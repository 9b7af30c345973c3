import { clientId } from '../../server/platform/actor.js';
import { loadTransaction } from '../../server/domain/money/transaction-view.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One of the signed-in client's payments, as its list answers it, with what the payer must still do. */
export const getTransaction: Handler<'getTransaction'> = async (ctx, req) =>
  ({ data: await loadTransaction(ctx.scope, req.params.id, clientId(ctx), ctx.clock.now()) });
