import { staffActor } from '../../server/platform/actor.js';
import { raiseInvoiceForPolicy } from '../../server/domain/policies/staff-invoices.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Raises the invoice of a draft policy of a client within the caller's reach, by the caller. */
export const createStaffInvoice: Handler<'createStaffInvoice'> = async (ctx, req) =>
  ({ data: await raiseInvoiceForPolicy(ctx, staffActor(ctx), req.body) });
