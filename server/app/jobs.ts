import type { Services } from '../platform/context.js';
import type { ChangeFeed } from '../platform/db/database.js';
import { pruneEvents } from '../platform/event-retention.js';
import { purgeEndedSessions } from '../platform/auth/refresh-tokens.js';
import { purgeExpiredKeys } from '../platform/idempotency.js';
import { raiseDueDebits } from '../domain/money/due-debits.js';
import { runPolicyLifecycle } from '../domain/policies/lifecycle-job.js';
import { purgeFinished } from '../platform/jobs/queue.js';
import { messageDeliveryHandler } from '../platform/messages/delivery.js';
import { forgetSentCodes } from '../platform/messages/retention.js';
import { DELIVER_MESSAGE_QUEUE } from '../platform/notifier.js';
import { DELIVER_WEBHOOK_QUEUE, webhookDeliveryHandler } from '../platform/webhooks/deliveries.js';
import { addressPolicy, tellEndpointDisabled } from '../domain/integrations/webhook-endpoints.js';
import { createWorker, type JobHandler, type Recurring, type Worker, type WorkerOptions } from '../platform/jobs/worker.js';

/** Raises the payments of direct debits due today (server/domain/money/due-debits.ts). */
export const DUE_DEBITS_QUEUE = 'direct-debits.due';
/** Moves policies as their dates pass (started, expired, complete) and reminds clients to renew (server/domain/policies/lifecycle-job.ts). */
export const POLICY_LIFECYCLE_QUEUE = 'policies.lifecycle';
/** Deletes finished jobs past their keeping time. */
export const PURGE_JOBS_QUEUE = 'jobs.purge';
/** Masks the one-time codes of messages sent over a day ago (server/platform/messages/retention.ts). */
export const FORGET_SENT_CODES_QUEUE = 'messages.forget-codes';
/** Deletes Idempotency-Keys past their 24 hours. */
export const PURGE_IDEMPOTENCY_KEYS_QUEUE = 'idempotency-keys.purge';
/** Deletes business events past their 30 days (server/platform/event-retention.ts). */
export const PRUNE_EVENTS_QUEUE = 'events.prune';
/** Deletes refresh tokens of ended sessions and revocations of expired access tokens. */
export const PURGE_ENDED_SESSIONS_QUEUE = 'sessions.purge';

/** Every queue this server runs, and its handler. */
export function jobHandlers(services: Pick<Services, 'db' | 'payments' | 'notifier' | 'config' | 'messages' | 'reactions' | 'eventSnapshots'>): Record<string, JobHandler> {
  return {
    [DELIVER_MESSAGE_QUEUE]: messageDeliveryHandler(services.db, services.messages),
    [DELIVER_WEBHOOK_QUEUE]: webhookDeliveryHandler(services.db, {
      ...addressPolicy(services),
      onEndpointDisabled: (scope, endpoint) => tellEndpointDisabled(services, scope, endpoint),
    }),
    async [DUE_DEBITS_QUEUE](_job, now) {
      const report = await raiseDueDebits(services, now);
      // Mandates that failed were rolled back: failing the job retries them after a backoff.
      if (report.failed.length) {
        throw new Error(`${report.failed.length} direct debit(s) failed: ${report.failed.map((f) => `${f.directDebitId}: ${f.error}`).join('; ')}`);
      }
    },
    async [POLICY_LIFECYCLE_QUEUE](_job, now) {
      const report = await runPolicyLifecycle(services, now, services.config.renewalReminderDays);
      // Policies that failed were rolled back: failing the job retries them after a backoff.
      if (report.failed.length) {
        throw new Error(`${report.failed.length} policy lifecycle step(s) failed: ${report.failed.map((f) => `${f.policyId} (${f.step}): ${f.error}`).join('; ')}`);
      }
    },
    async [PURGE_JOBS_QUEUE](_job, now) { await purgeFinished(services.db, now); },
    async [PURGE_IDEMPOTENCY_KEYS_QUEUE](_job, now) { await purgeExpiredKeys(services.db, now); },
    async [FORGET_SENT_CODES_QUEUE](_job, now) { await forgetSentCodes(services.db, now); },
    async [PRUNE_EVENTS_QUEUE](_job, now) { await pruneEvents(services.db, now); },
    async [PURGE_ENDED_SESSIONS_QUEUE](_job, now) { await purgeEndedSessions(services.db, now); },
  };
}

/** Scheduled jobs: one job per slot, whichever instance enqueues it first. */
export const RECURRING: readonly Recurring[] = [
  { queue: DUE_DEBITS_QUEUE, everyMs: 15 * 60_000 },
  { queue: POLICY_LIFECYCLE_QUEUE, everyMs: 15 * 60_000 },
  { queue: PURGE_JOBS_QUEUE, everyMs: 24 * 3600_000 },
  { queue: PURGE_IDEMPOTENCY_KEYS_QUEUE, everyMs: 3600_000 },
  { queue: PURGE_ENDED_SESSIONS_QUEUE, everyMs: 3600_000 },
  { queue: FORGET_SENT_CODES_QUEUE, everyMs: 3600_000 },
  { queue: PRUNE_EVENTS_QUEUE, everyMs: 24 * 3600_000 },
];

/** The worker `server/app/main.ts` runs: every queue above, woken by `changes` when jobs are committed, polling at least every `intervalMs`. */
export function backgroundWorker(services: Pick<Services, 'db' | 'payments' | 'notifier' | 'clock' | 'config' | 'messages' | 'reactions' | 'eventSnapshots' | 'tracing'>,
  options: { intervalMs: number; leaseMs?: number; changes?: ChangeFeed; log?: WorkerOptions['log'] }): Worker {
  // Traced, each job is a root span named by its queue, its statements its children.
  const inSpan = services.tracing?.inRootSpan.bind(services.tracing);
  return createWorker({ db: services.db, clock: services.clock, handlers: jobHandlers(services), recurring: RECURRING, inSpan, ...options });
}
