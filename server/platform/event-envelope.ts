import type { Selectable } from 'kysely';
import type { components } from '../../generated/api.js';
import type { DomainEventsTable } from './db/schema.js';

export type EventEnvelope = components['schemas']['Event'];

/**
 * A public event as integrators get it, from `GET /staff/events` and as a webhook's body: its
 * id, type, when, the contract version of its object, who made the change, and the object as the
 * API answered it then with the previous values of what changed.
 */
export function eventEnvelope(row: Selectable<DomainEventsTable>): EventEnvelope {
  return {
    id: row.id,
    type: row.type as EventEnvelope['type'],
    createdAt: new Date(row.created_at).toISOString(),
    apiVersion: row.api_version ?? '',
    actor: { by: row.actor_kind, id: row.actor_id },
    object: { type: row.object_type as EventEnvelope['object']['type'], id: row.object_id },
    data: { object: row.payload ?? {}, previous: row.previous },
  };
}
