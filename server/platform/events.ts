import type { TransactionScope } from './tenancy.js';

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
}

export interface RecordedEvent extends BusinessEvent {
  id: string;
  tenantId: string;
  at: Date;
}

/**
 * What follows an event, run inside the transaction that recorded it (the domain's reactions,
 * wired at the composition root): answers what it did, in words a notice can repeat.
 */
export type EventReactions = (scope: TransactionScope, event: RecordedEvent) => Promise<string[]>;

/** Writes the event's row in the scope's transaction and runs what follows it there; answers what followed. */
export async function recordEvent(reactions: EventReactions, scope: TransactionScope, event: BusinessEvent, at: Date) {
  const row = await scope.insertInto('domain_events', {
    type: event.type,
    actor_kind: event.actor.by,
    actor_id: event.actor.id,
    object_type: event.object.type,
    object_id: event.object.id,
    data: JSON.stringify(event.data),
    previous: event.previous ? JSON.stringify(event.previous) : null,
    created_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return reactions(scope, { ...event, id: row.id, tenantId: scope.tenantId, at });
}
