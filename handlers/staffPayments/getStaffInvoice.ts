import { staffActor } from '../../server/platform/actor.js';
import { loadStaffInvoice } from '../../server/domain/money/invoice-list.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One invoice of a client within the caller's reach, with figures derived from its payments. */
export const getStaffInvoice: Handler<'getStaffInvoice'> = async (ctx, req) =>
  ({ data: await loadStaffInvoice(ctx.scope, staffActor(ctx), req.params.id) });
