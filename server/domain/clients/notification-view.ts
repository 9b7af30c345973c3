import type { components } from '../../../generated/api.js';
import type { Selectable } from 'kysely';
import type { NotificationsTable } from '../../platform/db/schema.js';

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
