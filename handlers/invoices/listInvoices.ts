import { clientId } from '../../server/platform/actor.js';
import { listClientInvoices } from '../../server/domain/money/invoice-list.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The signed-in client's invoices, newest first, with figures derived from their payments. */
export const listInvoices: Handler<'listInvoices'> = async (ctx, req) => listClientInvoices(ctx.scope, clientId(ctx), pageOrCursor(req.query, req.sentQuery), ctx.clock.now());
