import type { components } from '../../../generated/api.js';
import type { Selectable } from 'kysely';
import type { NotificationsTable } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';

export type Notification = components['schemas']['Notification'];

/** Row -> the notification as the client sees it. */
export function toNotification(row: Selectable<NotificationsTable>): Notification {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    entity: row.entity,
    title: row.title,
    body: row.body,
    status: row.status,
    readAt: row.read_at ? row.read_at.toISOString() : null,
  };
}

/**
 * The newest notifications of a client or a staff member (`owner` names the column) and how many
 * are unread: what a profile shows.
 */
export async function latestNotifications(scope: TenantScope, owner: 'client_id' | 'staff_id', id: string, newest = 10) {
  const theirs = () => scope.selectFrom('notifications').where(owner, '=', id);
  const [rows, unread] = await Promise.all([
    theirs().selectAll().orderBy('created_at', 'desc').orderBy('id').limit(newest).execute(),
    theirs().select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'unread').executeTakeFirstOrThrow(),
  ]);
  return { notifications: rows.map(toNotification), unreadNotifications: Number(unread.n) };
}
