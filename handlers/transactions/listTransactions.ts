import { clientId } from '../../server/platform/actor.js';
import { listClientTransactions } from '../../server/domain/money/transaction-list.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The signed-in client's payments, newest first, with every seed filter: a page, every row, or an .xlsx export. */
export const listTransactions: Handler<'listTransactions'> = async (ctx, req) =>
  listClientTransactions(ctx.scope, clientId(ctx), req.query, ctx.clock.now());
