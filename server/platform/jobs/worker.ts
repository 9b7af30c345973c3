import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { claim, complete, DEFAULT_LEASE_MS, enqueue, fail, release, renewLease, type Job } from './queue.js';

/** Runs one claimed job; throwing fails it (retried with backoff). Must be safe to run twice. */
export type JobHandler = (job: Job, now: Date) => Promise<void>;

/** A job enqueued once per time slot (every `everyMs`), by whichever instance polls first. */
export interface Recurring { queue: string; everyMs: number }

export interface WorkerOptions {
  db: Kysely<Database>;
  clock: Clock;
  handlers: Record<string, JobHandler>;
  recurring?: readonly Recurring[];
  /** Time between polls. */
  intervalMs: number;
  /** Jobs claimed per poll at most (they run one after another). */
  batchSize?: number;
  leaseMs?: number;
  workerId?: string;
  log?: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
  /** Runs each job (its handler, then its completion or failure) in a root span of its queue's name, when tracing is on. */
  inSpan?: <T>(name: string, attributes: Record<string, string | number | boolean>, work: () => Promise<T>) => Promise<T>;
}

export interface Worker {
  readonly id: string;
  /** One poll: enqueue the current slot of each recurring job, then claim and run what is ready. Answers the jobs run. */
  tick(): Promise<number>;
  /** Polls every `intervalMs` until stopped (the first poll at once). */
  start(): void;
  /** Stops polling and waits for the job running to finish; the rest of its claimed batch is given back, for another worker. */
  stop(): Promise<void>;
  /** The job running now (queue and id), if any: what a shutdown that takes too long names. */
  current(): { queue: string; id: string } | undefined;
}

/** The dedupe key of a recurring job's slot: its queue and the slot's start. */
export const slotKey = (recurring: Recurring, now: Date) => {
  const start = Math.floor(now.getTime() / recurring.everyMs) * recurring.everyMs;
  return { dedupeKey: `${recurring.queue}@${new Date(start).toISOString()}`, runAt: new Date(start) };
};

/**
 * The background worker every instance runs. Its timer only polls: jobs, their schedule and their
 * locks live in the database, so any number of instances share the work, and a stopped or crashed
 * one loses nothing (its claimed jobs are taken again when their lease ends).
 */
export function createWorker(options: WorkerOptions): Worker {
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const queues = Object.keys(options.handlers);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let current: { queue: string; id: string } | undefined;
  /** Set by stop(): what the poll loop runs from then on is only the job it had started. */
  let stopping = false;

  async function tick(): Promise<number> {
    const now = options.clock.now();
    for (const recurring of options.recurring ?? []) {
      await enqueue(options.db, { queue: recurring.queue, ...slotKey(recurring, now), maxAttempts: 3 }, now);
    }
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const jobs = await claim(options.db, { queues, workerId: id, limit: options.batchSize ?? 10, leaseMs }, now);
    for (const job of jobs) {
      // Stopping (a shutdown): the jobs of the batch not yet started go back to the queue.
      if (stopping) {
        await release(options.db, job, id, options.clock.now());
        continue;
      }
      // The batch's jobs run one after another under the lease of its claim: a job whose turn comes
      // with less than half of it left (those before it were slow) has its lease renewed first, and
      // is left alone when it is no longer this worker's (the lease ended and another worker took it:
      // running it here too would do its work twice at once, a webhook sent twice).
      if (options.clock.now().getTime() > job.locked_until!.getTime() - leaseMs / 2
        && !await renewLease(options.db, job, id, leaseMs, options.clock.now())) {
        options.log?.warn?.({ job: job.id, queue: job.queue, attempt: job.attempts }, `job ${job.queue} skipped: its lease ended before its turn and another worker took it`);
        continue;
      }
      const run = async () => {
        current = { queue: job.queue, id: job.id };
        try {
          await options.handlers[job.queue](job, options.clock.now());
          await complete(options.db, job, id, options.clock.now());
        } catch (error) {
          const { retryAt } = await fail(options.db, job, id, error, options.clock.now());
          options.log?.error({ err: error, job: job.id, queue: job.queue, attempt: job.attempts, retryAt }, `job ${job.queue} failed`);
        } finally {
          current = undefined;
        }
      };
      await (options.inSpan ? options.inSpan(job.queue, { 'coverline.job.id': job.id, 'coverline.job.queue': job.queue, 'coverline.job.attempt': job.attempts }, run) : run());
    }
    return jobs.length;
  }

  const loop = async () => {
    const poll = tick().catch((err) => { options.log?.error({ err }, 'job worker poll failed'); return 0; });
    running = poll;
    const ran = await poll;
    running = undefined;
    // A full batch means more may be waiting (a burst of messages): poll again at once.
    if (!stopped) timer = setTimeout(loop, ran >= (options.batchSize ?? 10) ? 0 : options.intervalMs).unref();
  };

  return {
    id,
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      timer = setTimeout(loop, 0).unref();
    },
    async stop() {
      stopped = true;
      stopping = true;
      clearTimeout(timer);
      await running;
    },
    current: () => current,
  };
}
