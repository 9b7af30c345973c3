import { staffActor } from '../../server/platform/actor.js';
import { listStaffTransactions as paymentsInReach } from '../../server/domain/money/transaction-list.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The payments of the clients within the caller's reach: a page, every row, or an .xlsx export. */
export const listStaffTransactions: Handler<'listStaffTransactions'> = async (ctx, req) =>
  paymentsInReach(ctx.scope, staffActor(ctx), pageOrCursor(req.query, req.sentQuery), ctx.clock.now());
