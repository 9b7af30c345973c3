import { sql, type Transaction } from 'kysely';
import type { Database } from './db/schema.js';
import { apiVersion } from './openapi.js';
import { beforeCommit, TransactionScope } from './tenancy.js';
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
  /**
   * Public: listed, and delivered to webhooks, with its object as the API answers it once the
   * transaction's work is done (read just before it commits, after every reaction: a GET right
   * after the call answers the same), unless `payload` is given.
   */
  public?: boolean;
  /** A public event's object as last answered, for a change that removes it (nothing is left to read at commit). */
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
 * webhook endpoints that takes it when it is public, and runs what follows it there; answers what
 * followed. A public event's object is read just before the transaction commits (`settleSnapshots`).
 */
export async function recordEvent(services: EventServices, scope: TransactionScope, event: BusinessEvent, at: Date) {
  const isPublic = Boolean(event.public || event.payload);
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
    api_version: isPublic ? apiVersion() : null,
    created_at: at,
  };
  let id: string;
  if (event.onlyTo) {
    ({ id } = await scope.insertInto('domain_events', values).returning('id').executeTakeFirstOrThrow());
    await queueDelivery(scope, event.onlyTo, id, at);
  } else if (isPublic) {
    // The event and its deliveries in one statement.
    id = await insertPublicEvent(scope, values);
  } else {
    ({ id } = await scope.insertInto('domain_events', values).returning('id').executeTakeFirstOrThrow());
  }
  if (isPublic && !event.payload) snapshotAtCommit(services, scope, { id, object: event.object, at });
  return services.reactions(scope, { ...event, id, tenantId: scope.tenantId, at }, services);
}

/** A public event whose object is still to be read, with the tenant whose view it is. */
interface Unsettled { id: string; tenantId: string; object: { type: string; id: string }; at: Date }

/** The public events each open transaction has recorded without their object yet. */
const unsettled = new WeakMap<Transaction<Database>, { snapshots: EventSnapshots; events: Unsettled[] }>();

function snapshotAtCommit(services: EventServices, scope: TransactionScope, event: Omit<Unsettled, 'tenantId'>) {
  const pending = unsettled.get(scope.db);
  if (pending) {
    pending.events.push({ ...event, tenantId: scope.tenantId });
    return;
  }
  unsettled.set(scope.db, { snapshots: services.eventSnapshots, events: [{ ...event, tenantId: scope.tenantId }] });
  beforeCommit(scope.db, () => settleSnapshots(scope.db));
}

/**
 * Writes each public event's object as the API answers it now that the transaction's work is done
 * (its reactions included: a paid invoice's policies already moved, a confirmed payment's receipt
 * issued): each object read once, in the view of the company the event is recorded in (a product
 * assigned is seen by both companies), then every payload in one statement.
 */
async function settleSnapshots(trx: Transaction<Database>) {
  const pending = unsettled.get(trx);
  unsettled.delete(trx);
  if (!pending) return;
  const read = new Map<string, Promise<Record<string, unknown>>>();
  const rows: { id: string; payload: string }[] = [];
  for (const event of pending.events) {
    const key = `${event.tenantId} ${event.object.type} ${event.object.id}`;
    // Read at the time of the object's last event in the transaction (a view that ages, such as a checkout's expiry, shows that).
    const at = pending.events.filter((other) => other.tenantId === event.tenantId && other.object.id === event.object.id)
      .reduce((last, other) => (other.at > last ? other.at : last), event.at);
    if (!read.has(key)) read.set(key, pending.snapshots(new TransactionScope(trx, event.tenantId), event.object, at));
    rows.push({ id: event.id, payload: JSON.stringify(await read.get(key)) });
  }
  await sql`update domain_events as e set payload = v.payload
    from (values ${sql.join(rows.map((row) => sql`(${row.id}::uuid, ${row.payload}::jsonb)`))}) as v(id, payload)
    where e.id = v.id`.execute(trx);
}
