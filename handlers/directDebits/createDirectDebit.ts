import { clientId } from '../../server/platform/actor.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';
import { setUpMandate } from '../../server/domain/money/mandates.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Sets up a direct debit mandate on one of the signed-in client's unpaid policies. */
export const createDirectDebit: Handler<'createDirectDebit'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const id = await setUpMandate(ctx, owner, req.body, { by: 'client', id: owner });
  return { data: await loadDirectDebit(ctx.scope, id, owner) };
};
