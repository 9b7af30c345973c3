import { staffActor } from '../../server/platform/actor.js';
import { decidePayment } from '../../server/domain/money/staff-payments.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A supervisor confirms that a payment waiting for staff was received (not one they recorded themselves). */
export const approveTransaction: Handler<'approveTransaction'> = async (ctx, req) =>
  ({ data: await decidePayment(ctx, staffActor(ctx), req.params.id, { to: 'APPROVED', notes: req.body?.notes ?? null }) });
