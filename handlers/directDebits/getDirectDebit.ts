import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';

/** One of the signed-in client's mandates with its history; anyone else's id is 404. */
export const getDirectDebit: Handler<'getDirectDebit'> = async (ctx, req) =>
  ({ data: await loadDirectDebit(ctx.scope, req.params.id, clientId(ctx)) });
