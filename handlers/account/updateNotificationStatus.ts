import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { clientInbox, markNotification } from '../../server/domain/accounts/inbox.js';

/** Marks a notification read (when) or unread. */
export const updateNotificationStatus: Handler<'updateNotificationStatus'> = async (ctx, req) =>
  ({ data: await markNotification(ctx, clientInbox(clientId(ctx)), req.params.notificationId, req.body) });
