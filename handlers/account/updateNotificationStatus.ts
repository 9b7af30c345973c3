import { badRequest, notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { toNotification } from '../../server/domain/clients/notification-view.js';

// A phone's clock may run a little ahead of ours.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Marks a notification read (when) or unread. */
export const updateNotificationStatus: Handler<'updateNotificationStatus'> = async (ctx, req) => {
  const { status, readAt } = req.body;
  const now = ctx.clock.now();
  if (status === 'read' && !readAt) throw badRequest('body.readAt is required when body.status is read');
  if (status === 'unread' && readAt) throw badRequest('body.readAt is not allowed when body.status is unread');
  if (readAt && new Date(readAt).getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('body.readAt must not be in the future');
  const row = await ctx.scope.updateTable('notifications')
    .set({ status, read_at: status === 'read' ? new Date(readAt!) : null, updated_at: now })
    .where('id', '=', req.params.notificationId).where('client_id', '=', clientId(ctx))
    .returningAll().executeTakeFirst();
  if (!row) throw notFound('Notification');
  return { data: toNotification(row) };
};
