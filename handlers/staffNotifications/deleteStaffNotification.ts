import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { removeNotification, staffInbox } from '../../server/domain/accounts/inbox.js';

/** Removes one of the staff member's notifications. */
export const deleteStaffNotification: Handler<'deleteStaffNotification'> = async (ctx, req) => {
  await removeNotification(ctx.scope, staffInbox(staffId(ctx)), req.params.notificationId);
  return { message: 'Notification deleted' };
};
