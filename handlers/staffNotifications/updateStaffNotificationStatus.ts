import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { markNotification, staffInbox } from '../../server/domain/accounts/inbox.js';

/** Marks one of the staff member's notifications read (when) or unread. */
export const updateStaffNotificationStatus: Handler<'updateStaffNotificationStatus'> = async (ctx, req) =>
  ({ data: await markNotification(ctx, staffInbox(staffId(ctx)), req.params.notificationId, req.body) });
