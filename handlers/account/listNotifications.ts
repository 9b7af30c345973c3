import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { clientInbox, notificationPage } from '../../server/domain/accounts/inbox.js';

/** The signed-in client's notifications, newest first, a page at a time. */
export const listNotifications: Handler<'listNotifications'> = async (ctx, req) => {
  const { notifications, paginator } = await notificationPage(ctx.scope, clientInbox(clientId(ctx)), req.query);
  return { data: notifications, paginator };
};
