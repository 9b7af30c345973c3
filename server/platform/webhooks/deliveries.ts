import { sql, type Insertable } from 'kysely';
import type { DomainEventsTable } from '../db/schema.js';
import type { Db } from '../db/database.js';
import { eventEnvelope } from '../event-envelope.js';
import { enqueue, type Job } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { TenantScope, type TransactionScope } from '../tenancy.js';
import { sendWebhook, type WebhookAttempt } from './send.js';

/**
 * Delivering a company's public events to its webhook endpoints: one delivery per event and
 * endpoint that takes its type, made in the event's own transaction (no event without its
 * deliveries, no delivery of an event that rolled back), each attempt a job of the queue below.
 *
 * A delivery's first attempt is sent as soon as the event's transaction commits: inserting its job
 * notifies every worker (the jobs table's trigger, migration 034). At least once: the queue gives
 * each job to one worker at a time (SKIP LOCKED, with a lease its worker renews while sending), so
 * concurrent workers never send one attempt twice; a worker that stops mid-send leaves its job to
 * be taken again when the lease ends (the event is then sent again, with the same `webhook-id`).
 */

export const DELIVER_WEBHOOK_QUEUE = 'webhooks.deliver';

/**
 * The wait before each retry after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
 * (Standard Webhooks' example schedule): 8 attempts over about 28 hours, then the delivery FAILED.
 */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;

/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** How many times the queue runs one attempt's job (a worker lost mid-attempt). */
const ATTEMPT_JOB_TRIES = 3;

/**
 * One job per attempt; the job's own tries only cover a worker lost mid-attempt. `attempt` is
 * the delivery's attempt count when the job was queued: a job that finds it moved on is stale (a
 * manual retry ran first) and does nothing.
 */
async function queueAttempt(db: Db, deliveryId: string, attempt: number, runAt: Date, now: Date) {
  await enqueue(db, { queue: DELIVER_WEBHOOK_QUEUE, payload: { deliveryId, attempt }, runAt, maxAttempts: ATTEMPT_JOB_TRIES }, now);
}

/**
 * Writes public events' rows with a delivery to each enabled endpoint of each event's company that
 * takes its type, and each delivery's first attempt (a job, due now): one statement, a chain of
 * data-modifying CTEs, so a transaction's events cost one round trip whatever their number and
 * the endpoints'.
 */
export async function insertPublicEvents(db: Db, events: Insertable<DomainEventsTable>[]): Promise<void> {
  await db
    .with('event', (db) => db.insertInto('domain_events').values(events)
      .returning(['id', 'type', 'tenant_id', 'created_at']))
    .with('delivery', (db) => db.insertInto('webhook_deliveries')
      .columns(['tenant_id', 'endpoint_id', 'event_id', 'next_attempt_at', 'created_at', 'updated_at'])
      .expression((eb) => eb.selectFrom('event')
        .innerJoin('webhook_endpoints as endpoint', (join) => join.onRef('endpoint.tenant_id', '=', 'event.tenant_id'))
        .where('endpoint.enabled', '=', true)
        .where(sql<boolean>`(endpoint.event_types is null or event.type = any(endpoint.event_types))`)
        .select(['event.tenant_id', 'endpoint.id as endpoint_id', 'event.id as event_id', 'event.created_at as next_attempt_at',
          'event.created_at', 'event.created_at as updated_at']))
      .returning(['id', 'created_at']))
    // Each delivery's attempt 0, as queueAttempt enqueues it.
    .with('attempt', (db) => db.insertInto('jobs')
      .columns(['queue', 'payload', 'run_at', 'max_attempts', 'created_at', 'updated_at'])
      .expression((eb) => eb.selectFrom('delivery').select([
        sql.lit(DELIVER_WEBHOOK_QUEUE).as('queue'),
        sql<string>`jsonb_build_object('deliveryId', delivery.id, 'attempt', 0)`.as('payload'),
        'delivery.created_at as run_at', sql.lit(ATTEMPT_JOB_TRIES).as('max_attempts'), 'delivery.created_at', 'delivery.created_at as updated_at',
      ])))
    .selectFrom('event').select('id').execute();
}

/** A new delivery of an event to one endpoint, attempted now. */
export async function queueDelivery(scope: TransactionScope, endpointId: string, eventId: string, at: Date): Promise<string> {
  const { id } = await scope.insertInto('webhook_deliveries', {
    endpoint_id: endpointId, event_id: eventId, next_attempt_at: at, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  await queueAttempt(scope.db, id, 0, at, at);
  return id;
}

/** Sends a delivery again now, whatever its state (a FAILED or SUCCEEDED one becomes PENDING); false when there is none. */
export async function retryDelivery(scope: TransactionScope, deliveryId: string, now: Date): Promise<boolean> {
  const delivery = await scope.updateTable('webhook_deliveries').set({ status: 'PENDING', next_attempt_at: now, updated_at: now })
    .where('id', '=', deliveryId).returning('attempts').executeTakeFirst();
  if (!delivery) return false;
  await queueAttempt(scope.db, deliveryId, delivery.attempts, now, now);
  return true;
}

export interface WebhookDeliveryOptions {
  /** The sandbox: http and loopback or private addresses allowed (integrators test on their own machine). */
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
  /** What follows an endpoint the platform disabled for failing (the domain tells the company's executive managers). */
  onEndpointDisabled?: (scope: TransactionScope, endpoint: { id: string; url: string; reason: string }, at: Date) => Promise<void>;
}

/** The job of the `webhooks.deliver` queue: one attempt of one delivery, and what follows it. */
export function webhookDeliveryHandler(db: Db, options: WebhookDeliveryOptions): JobHandler {
  return async (job: Job, now: Date) => {
    const deliveryId = String(job.payload.deliveryId);
    const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
    if (!delivery || delivery.status !== 'PENDING' || delivery.attempts !== Number(job.payload.attempt)) return;
    const [endpoint, event] = await Promise.all([
      db.selectFrom('webhook_endpoints').selectAll().where('id', '=', delivery.endpoint_id).executeTakeFirst(),
      db.selectFrom('domain_events').selectAll().where('id', '=', delivery.event_id).executeTakeFirst(),
    ]);
    if (!endpoint || !event) return; // deleted since: its deliveries went with it
    const attempt: WebhookAttempt = endpoint.enabled
      ? await sendWebhook({
        url: endpoint.url, id: event.id, timestamp: now, body: JSON.stringify(eventEnvelope(event)),
        secrets: [endpoint.secret, ...(endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? [endpoint.previous_secret] : [])],
        allowPrivateNetwork: options.allowPrivateNetwork, timeoutMs: options.timeoutMs,
      })
      : { ok: false, statusCode: null, durationMs: 0, responseExcerpt: null, error: 'the endpoint is disabled', retryable: false };
    await new TenantScope(db, delivery.tenant_id).transaction((scope) => recordAttempt(scope, delivery.id, delivery.attempts, attempt, now, options));
  };
}

/** Keeps an attempt and moves its delivery and endpoint on: SUCCEEDED, the next try queued, or FAILED. */
async function recordAttempt(scope: TransactionScope, deliveryId: string, attemptsBefore: number, attempt: WebhookAttempt, now: Date,
  options: WebhookDeliveryOptions) {
  const delivery = await scope.selectFrom('webhook_deliveries').select(['endpoint_id', 'attempts']).where('id', '=', deliveryId).forUpdate().executeTakeFirst();
  if (!delivery || delivery.attempts !== attemptsBefore) return; // a concurrent retry recorded this attempt's place
  const attempts = delivery.attempts + 1;
  await scope.insertInto('webhook_attempts', {
    delivery_id: deliveryId, status_code: attempt.statusCode, duration_ms: Math.round(attempt.durationMs),
    response_excerpt: attempt.responseExcerpt, error: attempt.error, created_at: now,
  }).execute();
  // Attempts at one endpoint are recorded one at a time (its failing_since and disabling), under a
  // lock that leaves its key alone: every open transaction that queued a delivery to the endpoint
  // holds a key-share lock on its row (the foreign key), which FOR UPDATE would wait for, making
  // each attempt wait for the business changes in flight (the bench saw a lag of 30 s, not 1 s).
  const endpoint = await scope.selectFrom('webhook_endpoints').select(['id', 'url', 'enabled', 'failing_since'])
    .where('id', '=', delivery.endpoint_id).forNoKeyUpdate().executeTakeFirstOrThrow();
  if (attempt.ok) {
    await scope.updateTable('webhook_deliveries').set({ status: 'SUCCEEDED', attempts, last_attempt_at: now, next_attempt_at: null, updated_at: now })
      .where('id', '=', deliveryId).execute();
    if (endpoint.failing_since) await scope.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpoint.id).execute();
    return;
  }
  const wait = attempt.retryable && endpoint.enabled ? RETRY_SCHEDULE_MS[attempts - 1] : undefined;
  const next = wait === undefined ? null : new Date(now.getTime() + wait);
  await scope.updateTable('webhook_deliveries').set({
    status: next ? 'PENDING' : 'FAILED', attempts, last_attempt_at: now, next_attempt_at: next, updated_at: now,
  }).where('id', '=', deliveryId).execute();
  if (next) await queueAttempt(scope.db, deliveryId, attempts, next, now);
  if (!endpoint.enabled) return;
  const failingSince = endpoint.failing_since ?? now;
  if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) {
    const reason = `every delivery failed since ${failingSince.toISOString()} (last: ${attempt.error ?? `HTTP ${attempt.statusCode}`})`;
    await scope.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, updated_at: now }).where('id', '=', endpoint.id).execute();
    await options.onEndpointDisabled?.(scope, { id: endpoint.id, url: endpoint.url, reason }, now);
  } else if (!endpoint.failing_since) {
    await scope.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', endpoint.id).execute();
  }
}
