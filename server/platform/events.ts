import { apiVersion } from './openapi.js';
import type { TransactionScope } from './tenancy.js';
import { insertPublicEvent, queueDelivery } from './webhooks/deliveries.js';

/** Who makes a change: a client, a staff member, the system (a job) or a payment provider (its webhook). */
export type ActorKind = 'client' | 'staff' | 'system' | 'provider';

/** Who made a change, as every state change and event records it: a client's or staff member's id, a provider's name, null for the system. */
export interface EventActor {
  by: ActorKind;
  id: string | null;
}

/**
 * A business change as recorded: what kind (`type`, `<object>.<what happened>`), who made it, the
 * object it happened to, the facts that matter to whoever reacts (`data`) and, for a change of
 * fields or state, their values before (`previous`). The domain's catalogue types each kind
 * (server/domain/events/catalogue.ts); the platform only stores and hands them on.
 */
export interface BusinessEvent {
  type: string;
  actor: EventActor;
  object: { type: string; id: string };
  data: Record<string, unknown>;
  previous?: Record<string, unknown> | null;
  /** The object as the API answers it now: an event with one is public (listed, and delivered to webhooks). */
  payload?: Record<string, unknown> | null;
  /** Delivered to this webhook endpoint alone, whatever the types it takes (a test event); else to every endpoint that takes its type. */
  onlyTo?: string;
  /** The event's id when the caller must know it (a test event's delivery is looked up by it); else one is made. */
  id?: string;
}

export interface RecordedEvent extends BusinessEvent {
  id: string;
  tenantId: string;
  at: Date;
}

/**
 * What follows an event, run inside the transaction that recorded it (the domain's reactions,
 * wired at the composition root): answers what it did, in words a notice can repeat. It is handed
 * the services that recorded the event, so a change it makes records its own events there too.
 */
export type EventReactions = (scope: TransactionScope, event: RecordedEvent, services: EventServices) => Promise<string[]>;

/**
 * An event's object as the API answers it now (the domain's views, wired at the composition
 * root): what a public event carries in `data.object`.
 */
export type EventSnapshots = (scope: TransactionScope, object: { type: string; id: string }, at: Date) => Promise<Record<string, unknown>>;

/** What recording an event uses: what follows it, and its object as the API answers it. */
export interface EventServices {
  reactions: EventReactions;
  eventSnapshots: EventSnapshots;
}

/**
 * Writes the event's row in the scope's transaction, with a delivery to each of the company's
 * webhook endpoints that takes it when it is public, and runs what follows it there; answers what followed.
 */
export async function recordEvent(services: EventServices, scope: TransactionScope, event: BusinessEvent, at: Date) {
  const values = {
    ...(event.id && { id: event.id }),
    type: event.type,
    actor_kind: event.actor.by,
    actor_id: event.actor.id,
    object_type: event.object.type,
    object_id: event.object.id,
    data: JSON.stringify(event.data),
    previous: event.previous ? JSON.stringify(event.previous) : null,
    payload: event.payload ? JSON.stringify(event.payload) : null,
    api_version: event.payload ? apiVersion() : null,
    created_at: at,
  };
  let id: string;
  if (event.onlyTo) {
    ({ id } = await scope.insertInto('domain_events', values).returning('id').executeTakeFirstOrThrow());
    await queueDelivery(scope, event.onlyTo, id, at);
  } else if (event.payload) {
    // The event and its deliveries in one statement.
    id = await insertPublicEvent(scope, values);
  } else {
    ({ id } = await scope.insertInto('domain_events', values).returning('id').executeTakeFirstOrThrow());
  }
  const row = { id };
  return services.reactions(scope, { ...event, id: row.id, tenantId: scope.tenantId, at }, services);
}
