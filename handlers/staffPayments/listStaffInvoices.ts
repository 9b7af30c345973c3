import { staffActor } from '../../server/platform/actor.js';
import { listStaffInvoices as invoicesInReach } from '../../server/domain/money/invoice-list.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The invoices of the clients within the caller's reach, with figures derived from their payments. */
export const listStaffInvoices: Handler<'listStaffInvoices'> = async (ctx, req) =>
  invoicesInReach(ctx.scope, staffActor(ctx), pageOrCursor(req.query, req.sentQuery), ctx.clock.now());
