import { clientId } from '../../server/platform/actor.js';
import { listClientTransactions } from '../../server/domain/money/transaction-list.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The signed-in client's payments, newest first, with every seed filter: a page, every row, or an .xlsx export. */
export const listTransactions: Handler<'listTransactions'> = async (ctx, req) =>
  listClientTransactions(ctx.scope, clientId(ctx), pageOrCursor(req.query, req.sentQuery), ctx.clock.now());
