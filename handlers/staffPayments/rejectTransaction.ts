import { staffActor } from '../../server/platform/actor.js';
import { decidePayment } from '../../server/domain/money/staff-payments.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A supervisor records that a payment waiting for staff was not received, and why (the client is told). */
export const rejectTransaction: Handler<'rejectTransaction'> = async (ctx, req) =>
  ({ data: await decidePayment(ctx, staffActor(ctx), req.params.id, { to: 'REJECTED', notes: req.body.reason }) });
