import type { operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { pageOf } from '../../platform/pagination.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { toNotification, type Notification } from './notification-view.js';

/** A client's in-app notifications as it reads them: a page, one, marked read or unread, removed. */

type NotificationQuery = NonNullable<operations['listNotifications']['parameters']['query']>;
type StatusUpdate = operations['updateNotificationStatus']['requestBody']['content']['application/json'];

/** One page of the client's notifications, newest first, of one status if asked. */
export async function notificationPage(scope: TenantScope, clientId: string, query: NotificationQuery) {
  const { status } = query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const mine = scope.selectFrom('notifications').where('client_id', '=', clientId)
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!));
  const { offset, paginator } = await pageOf(mine, page, limit);
  const rows = await mine.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute();
  return { notifications: rows.map(toNotification), paginator };
}

/** One of the client's notifications; anyone else's is not found. */
export async function ownNotification(scope: TenantScope, clientId: string, id: string): Promise<Notification> {
  const row = await scope.selectFrom('notifications').selectAll()
    .where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
  if (!row) throw notFound('Notification');
  return toNotification(row);
}

// A phone's clock may run a little ahead of ours.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Marks one of the client's notifications read (when: not in the future) or unread. */
export async function markNotification(ctx: HandlerContext, clientId: string, id: string, { status, readAt }: StatusUpdate): Promise<Notification> {
  const now = ctx.clock.now();
  if (status === 'read' && !readAt) throw badRequest('body.readAt is required when body.status is read');
  if (status === 'unread' && readAt) throw badRequest('body.readAt is not allowed when body.status is unread');
  if (readAt && new Date(readAt).getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('body.readAt must not be in the future');
  const row = await ctx.scope.updateTable('notifications')
    .set({ status, read_at: status === 'read' ? new Date(readAt!) : null, updated_at: now })
    .where('id', '=', id).where('client_id', '=', clientId)
    .returningAll().executeTakeFirst();
  if (!row) throw notFound('Notification');
  return toNotification(row);
}

/** Removes one of the client's notifications. */
export async function removeNotification(scope: TenantScope, clientId: string, id: string): Promise<void> {
  const deleted = await scope.deleteFrom('notifications').where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound('Notification');
}
