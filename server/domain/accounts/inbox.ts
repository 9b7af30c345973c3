import type { operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { Kysely } from 'kysely';
import { compiledQueries } from '../../platform/db/compiled-query.js';
import type { Database } from '../../platform/db/schema.js';
import { paginate } from '../../platform/pagination.js';
import { TenantScope } from '../../platform/tenancy.js';
import type { AccountOwner } from './account.js';
import { toNotification, type Notification } from './notification-view.js';

/**
 * An account's in-app notifications as its owner reads them: a page, one, marked read or unread,
 * removed. One piece for every kind of account: a notification names its owner through
 * `client_id` or `staff_id`, and `InboxOwner` says which column and whose id.
 */

export interface InboxOwner { column: AccountOwner['owner']; id: string }

// Clients and staff read their inboxes through the same query and body (the contract's shared parameters).
type NotificationQuery = NonNullable<operations['listNotifications']['parameters']['query']>;
type StatusUpdate = operations['updateNotificationStatus']['requestBody']['content']['application/json'];

const inbox = (scope: TenantScope, owner: InboxOwner) => scope.selectFrom('notifications').where(owner.column, '=', owner.id);

/** An inbox page's shape: whose (the owner's column) and whether one status is asked for. */
type InboxShape = `${InboxOwner['column']} ${'all' | 'status'}`;
interface InboxParams { tenantId: string; ownerId: string; status?: string; limit?: number; offset?: number; [name: string]: unknown }

const inboxOfShape = (shape: InboxShape, db: Kysely<Database>, params: InboxParams) => {
  const [column, which] = shape.split(' ') as [InboxOwner['column'], 'all' | 'status'];
  const mine = inbox(new TenantScope(db, params.tenantId), { column, id: params.ownerId });
  return which === 'status' ? mine.where('status', '=', params.status as Notification['status']) : mine;
};
// The page's count and rows, each built once per shape: an inbox is read on every app start.
const inboxCount = compiledQueries((shape: InboxShape, db, params: InboxParams) =>
  inboxOfShape(shape, db, params).select((eb) => eb.fn.countAll<string>().as('count')));
const inboxRows = compiledQueries((shape: InboxShape, db, params: InboxParams) =>
  inboxOfShape(shape, db, params).selectAll().orderBy('created_at', 'desc').orderBy('id').limit(params.limit!).offset(params.offset!));

/** One page of the owner's notifications, newest first, of one status if asked. */
export async function notificationPage(scope: TenantScope, owner: InboxOwner, query: NotificationQuery) {
  const { status } = query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const shape: InboxShape = `${owner.column} ${status === undefined ? 'all' : 'status'}`;
  const params: InboxParams = { tenantId: scope.tenantId, ownerId: owner.id, status };
  const [{ count }] = await inboxCount(shape, scope.db, params);
  const { offset, paginator } = paginate({ page, limit, itemsCount: Number(count) });
  const rows = await inboxRows(shape, scope.db, { ...params, limit, offset });
  return { notifications: rows.map(toNotification), paginator };
}

/** One of the owner's notifications; anyone else's is not found. */
export async function ownNotification(scope: TenantScope, owner: InboxOwner, id: string): Promise<Notification> {
  const row = await inbox(scope, owner).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Notification');
  return toNotification(row);
}

// A phone's clock may run a little ahead of ours.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Marks one of the owner's notifications read (when: not in the future) or unread. */
export async function markNotification(ctx: Pick<HandlerContext, 'clock' | 'scope'>, owner: InboxOwner, id: string, { status, readAt }: StatusUpdate): Promise<Notification> {
  const now = ctx.clock.now();
  if (status === 'read' && !readAt) throw badRequest('body.readAt is required when body.status is read');
  if (status === 'unread' && readAt) throw badRequest('body.readAt is not allowed when body.status is unread');
  if (readAt && new Date(readAt).getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('body.readAt must not be in the future');
  const row = await ctx.scope.updateTable('notifications')
    .set({ status, read_at: status === 'read' ? new Date(readAt!) : null, updated_at: now })
    .where('id', '=', id).where(owner.column, '=', owner.id)
    .returningAll().executeTakeFirst();
  if (!row) throw notFound('Notification');
  return toNotification(row);
}

/** Removes one of the owner's notifications. */
export async function removeNotification(scope: TenantScope, owner: InboxOwner, id: string): Promise<void> {
  const deleted = await scope.deleteFrom('notifications').where('id', '=', id).where(owner.column, '=', owner.id).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound('Notification');
}

/** A client's inbox. */
export const clientInbox = (clientId: string): InboxOwner => ({ column: 'client_id', id: clientId });
/** A staff member's inbox. */
export const staffInbox = (staffId: string): InboxOwner => ({ column: 'staff_id', id: staffId });
