import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { notificationPage, staffInbox } from '../../server/domain/accounts/inbox.js';

/** The signed-in staff member's notifications, newest first, a page at a time. */
export const listStaffNotifications: Handler<'listStaffNotifications'> = async (ctx, req) => {
  const { notifications, paginator } = await notificationPage(ctx.scope, staffInbox(staffId(ctx)), req.query);
  return { data: notifications, paginator };
};
