import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { markNotification } from '../../server/domain/clients/inbox.js';

/** Marks a notification read (when) or unread. */
export const updateNotificationStatus: Handler<'updateNotificationStatus'> = async (ctx, req) =>
  ({ data: await markNotification(ctx, clientId(ctx), req.params.notificationId, req.body) });
