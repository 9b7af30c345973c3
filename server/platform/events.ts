import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database, DomainEventsTable } from './db/schema.js';
import { apiVersion } from './openapi.js';
import { beforeCommit, TransactionScope } from './tenancy.js';
import { insertPublicEvents, queueDelivery } from './webhooks/deliveries.js';

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
 * Records the event in the scope's transaction and runs what follows it there; answers what
 * followed. A public event (with a delivery to each of the company's webhook endpoints that takes
 * it) is written just before the transaction commits, its object read then (`settleEvents`):
 * after every reaction, and all of a transaction's public events in one statement.
 */
export async function recordEvent(services: EventServices, scope: TransactionScope, event: BusinessEvent, at: Date) {
  const isPublic = Boolean(event.public || event.payload);
  const id = event.id ?? randomUUID();
  const values: Insertable<DomainEventsTable> = {
    id,
    tenant_id: scope.tenantId,
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
  const unsettled = { values, object: event.object, at };
  if (event.onlyTo) {
    // Its one delivery is answered by the caller at once: written now, its object read at commit.
    await scope.db.insertInto('domain_events').values(values).execute();
    await queueDelivery(scope, event.onlyTo, id, at);
    if (!event.payload) settleAtCommit(services, scope).written.push(unsettled);
  } else if (isPublic) {
    settleAtCommit(services, scope).unwritten.push(unsettled);
  } else {
    await scope.db.insertInto('domain_events').values(values).execute();
  }
  return services.reactions(scope, { ...event, id, tenantId: scope.tenantId, at }, services);
}

/** A public event still to settle: its row (its tenant's), its object and when. */
interface Unsettled { values: Insertable<DomainEventsTable>; object: { type: string; id: string }; at: Date }

/** What each open transaction has still to settle of its public events: those to write, and those written without their object. */
const toSettle = new WeakMap<Transaction<Database>, { snapshots: EventSnapshots; unwritten: Unsettled[]; written: Unsettled[] }>();

function settleAtCommit(services: EventServices, scope: TransactionScope) {
  let pending = toSettle.get(scope.db);
  if (!pending) {
    pending = { snapshots: services.eventSnapshots, unwritten: [], written: [] };
    toSettle.set(scope.db, pending);
    const trx = scope.db;
    beforeCommit(trx, () => settleEvents(trx));
  }
  return pending;
}

/**
 * Settles a transaction's public events now that its work is done (its reactions included: a paid
 * invoice's policies already moved, a confirmed payment's receipt issued): each object read once,
 * as the API answers it, in the view of the company the event is recorded in (a product assigned is
 * seen by both companies); then the events with their deliveries written in one statement, and
 * those written already (a test delivery) given their object in another.
 */
async function settleEvents(trx: Transaction<Database>) {
  const pending = toSettle.get(trx);
  toSettle.delete(trx);
  if (!pending) return;
  const all = [...pending.unwritten, ...pending.written];
  const read = new Map<string, Promise<Record<string, unknown>>>();
  const objectOf = (event: Unsettled) => {
    if (event.values.payload) return event.values.payload;
    const tenantId = event.values.tenant_id;
    const key = `${tenantId} ${event.object.type} ${event.object.id}`;
    if (!read.has(key)) {
      // Read at the time of the object's last event in the transaction (a view that ages, such as a checkout's expiry, shows that).
      const at = all.filter((other) => other.values.tenant_id === tenantId && other.object.id === event.object.id)
        .reduce((last, other) => (other.at > last ? other.at : last), event.at);
      read.set(key, pending.snapshots(new TransactionScope(trx, tenantId), event.object, at));
    }
    return read.get(key)!.then((object) => JSON.stringify(object));
  };
  const unwritten: Insertable<DomainEventsTable>[] = [];
  for (const event of pending.unwritten) unwritten.push({ ...event.values, payload: await objectOf(event) });
  const written: { id: string; payload: string }[] = [];
  for (const event of pending.written) written.push({ id: event.values.id!, payload: await objectOf(event) });
  if (unwritten.length > 0) await insertPublicEvents(trx, unwritten);
  if (written.length > 0) {
    await sql`update domain_events as e set payload = v.payload
      from (values ${sql.join(written.map((row) => sql`(${row.id}::uuid, ${row.payload}::jsonb)`))}) as v(id, payload)
      where e.id = v.id`.execute(trx);
  }
}
