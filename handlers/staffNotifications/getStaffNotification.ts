import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { ownNotification, staffInbox } from '../../server/domain/accounts/inbox.js';

/** One of the staff member's notifications; anyone else's is not found. */
export const getStaffNotification: Handler<'getStaffNotification'> = async (ctx, req) =>
  ({ data: await ownNotification(ctx.scope, staffInbox(staffId(ctx)), req.params.notificationId) });
