import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { ChangeFeed } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { claim, complete, DEFAULT_LEASE_MS, enqueue, fail, JOBS_CHANNEL, nextDue, release, renewLease, type Job } from './queue.js';

/** Runs one claimed job; throwing fails it (retried with backoff). Must be safe to run twice. */
export type JobHandler = (job: Job, now: Date) => Promise<void>;

/** A job enqueued once per time slot (every `everyMs`), by whichever instance polls first. */
export interface Recurring { queue: string; everyMs: number }

/** Jobs one worker runs at once unless told otherwise. */
export const DEFAULT_BATCH_SIZE = 10;

export interface WorkerOptions {
  db: Kysely<Database>;
  clock: Clock;
  handlers: Record<string, JobHandler>;
  recurring?: readonly Recurring[];
  /** Most time between polls: what runs a job when no notice says so (a lost notice, a job falling due later). */
  intervalMs: number;
  /** Jobs run at once at most: a poll claims only as many as it can start now. */
  batchSize?: number;
  /** A claimed job's lease (DEFAULT_LEASE_MS), renewed every `heartbeatMs` while it runs. */
  leaseMs?: number;
  /** How often a running job's lease is renewed: a third of the lease unless set. */
  heartbeatMs?: number;
  /** The database's notices: a committed insert of jobs (JOBS_CHANNEL) makes the worker poll at once. */
  changes?: ChangeFeed;
  workerId?: string;
  log?: { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
  /** Runs each job (its handler, then its completion or failure) in a root span of its queue's name, when tracing is on. */
  inSpan?: <T>(name: string, attributes: Record<string, string | number | boolean>, work: () => Promise<T>) => Promise<T>;
}

export interface Worker {
  readonly id: string;
  /** One poll: enqueue the current slot of each recurring job, then claim what is ready and run it (at once, up to `batchSize`). Answers the jobs run. */
  tick(): Promise<number>;
  /** Polls until stopped: at once, whenever jobs are committed (with `changes`), when a job ends and more may wait, and at the latest every `intervalMs`. */
  start(): void;
  /** Stops polling and waits for the jobs running to finish; jobs a poll in progress claims are given back, for another worker. */
  stop(): Promise<void>;
  /** The jobs running now (queue and id): what a shutdown that takes too long names. */
  running(): Array<{ queue: string; id: string }>;
}

/** The dedupe key of a recurring job's slot: its queue and the slot's start. */
export const slotKey = (recurring: Recurring, now: Date) => {
  const start = Math.floor(now.getTime() / recurring.everyMs) * recurring.everyMs;
  return { dedupeKey: `${recurring.queue}@${new Date(start).toISOString()}`, runAt: new Date(start) };
};

/**
 * The background worker every instance runs. Jobs, their schedule and their locks live in the
 * database, so any number of instances share the work. A worker claims only the jobs it starts at
 * once, and keeps each one's short lease alive while it runs: a crashed worker strands only the jobs
 * it was running, until their lease ends; everything else is taken by the next poll of any worker.
 * It polls when told (a notice of jobs committed), when a job of a full claim ends, and otherwise
 * at the earlier of `intervalMs` and the moment the next job falls due.
 */
export function createWorker(options: WorkerOptions): Worker {
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const queues = Object.keys(options.handlers);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(leaseMs / 3));
  const running = new Map<string, { queue: string; id: string; done: Promise<void> }>();
  /** The slot of each recurring job this worker has enqueued last: enqueued once per slot, not at every poll. */
  const enqueuedSlots = new Map<string, string>();
  let stopped = true;
  /** Set by stop() until the next start(): jobs claimed from then on are given back, not run. */
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  /** The poll in progress, and whether something asked for another meanwhile (polls never overlap). */
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  /** The last claim took all it had room for: more may be ready, so a job's end polls again. */
  let moreReady = false;
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;

  async function enqueueRecurring(now: Date) {
    for (const recurring of options.recurring ?? []) {
      const slot = slotKey(recurring, now);
      if (enqueuedSlots.get(recurring.queue) === slot.dedupeKey) continue;
      await enqueue(options.db, { queue: recurring.queue, ...slot, maxAttempts: 3 }, now);
      enqueuedSlots.set(recurring.queue, slot.dedupeKey);
    }
  }

  /** Renews a running job's lease every `heartbeatMs` until the answered function is called. */
  function heartbeat(job: Job): () => void {
    let ended = false;
    const beat = setInterval(() => {
      void renewLease(options.db, job, id, leaseMs, options.clock.now()).then((held) => {
        if (held || ended) return;
        // Its lease ended unrenewed (the database was out of reach) and another worker took it: it may run twice.
        clearInterval(beat);
        options.log?.warn?.({ job: job.id, queue: job.queue, attempt: job.attempts }, `job ${job.queue} lost its lease while running: another worker took it`);
      }, (err) => { if (!ended) options.log?.warn?.({ err, job: job.id, queue: job.queue }, `job ${job.queue}: its lease could not be renewed`); });
    }, heartbeatMs).unref();
    return () => { ended = true; clearInterval(beat); };
  }

  /** Runs a claimed job to its end (done, or failed to retry), its lease renewed meanwhile. */
  function run(job: Job): Promise<void> {
    const work = async () => {
      const beating = heartbeat(job);
      try {
        await options.handlers[job.queue](job, options.clock.now());
        beating();
        await complete(options.db, job, id, options.clock.now());
      } catch (error) {
        beating();
        const { retryAt } = await fail(options.db, job, id, error, options.clock.now());
        options.log?.error({ err: error, job: job.id, queue: job.queue, attempt: job.attempts, retryAt }, `job ${job.queue} failed`);
      }
    };
    const attributes = { 'coverline.job.id': job.id, 'coverline.job.queue': job.queue, 'coverline.job.attempt': job.attempts };
    const done = (options.inSpan ? options.inSpan(job.queue, attributes, work) : work())
      // Its end could not be recorded (the database out of reach): the lease runs out, and it runs again.
      .catch((err) => { options.log?.error({ err, job: job.id, queue: job.queue }, `job ${job.queue}: its end could not be recorded`); })
      .finally(() => {
        running.delete(job.id);
        if (moreReady) wake();
      });
    running.set(job.id, { queue: job.queue, id: job.id, done });
    return done;
  }

  /**
   * Enqueues the recurring slots, claims as many ready jobs as there is room for and starts each;
   * answers their runs and whether the claim was full. Jobs claimed once stopping are given back.
   */
  async function claimAndStart(): Promise<{ runs: Promise<void>[]; full: boolean; claimedAt: Date }> {
    const now = options.clock.now();
    await enqueueRecurring(now);
    const room = batchSize - running.size;
    if (room <= 0) return { runs: [], full: true, claimedAt: now };
    const jobs = await claim(options.db, { queues, workerId: id, limit: room, leaseMs }, now);
    if (stopping) {
      for (const job of jobs) await release(options.db, job, id, options.clock.now());
      return { runs: [], full: false, claimedAt: now };
    }
    return { runs: jobs.map(run), full: jobs.length === room, claimedAt: now };
  }

  /** One poll of the loop; answers the wait before the next timed one. */
  async function poll(): Promise<number> {
    try {
      const { full, claimedAt } = await claimAndStart();
      moreReady = full;
      if (full) return options.intervalMs;
      // From the claim's time: a job falling due (a lease ending) since the claim read is polled for at once.
      const next = await nextDue(options.db, queues, claimedAt);
      // A millisecond past it: a lease has ended only once `locked_until < now` (a timer firing on
      // the very millisecond would claim nothing and wait a whole interval).
      return next ? Math.min(options.intervalMs, Math.max(0, next.getTime() - options.clock.now().getTime()) + 1) : options.intervalMs;
    } catch (err) {
      options.log?.error({ err }, 'job worker poll failed');
      return options.intervalMs;
    }
  }

  /** Polls now, or right after the poll in progress (never two at once); then sets the timer. */
  function wake() {
    if (stopped) return;
    if (polling) { pollAgain = true; return; }
    clearTimeout(timer);
    polling = (async () => {
      let waitMs: number;
      do {
        pollAgain = false;
        waitMs = await poll();
      } while (pollAgain && !stopped);
      // No await from the check above to here: a wake arriving now starts a poll of its own.
      polling = undefined;
      if (!stopped) timer = setTimeout(wake, waitMs).unref();
    })();
  }

  return {
    id,
    async tick() {
      const { runs } = await claimAndStart();
      await Promise.all(runs);
      return runs.length;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      // Notices while listening; when the listener comes (back), a poll for what was committed unheard.
      listening = options.changes?.listen(JOBS_CHANNEL, { notice: wake, listening: (on) => { if (on) wake(); } })
        .catch((err) => { options.log?.warn?.({ err }, 'job worker: not listening for new jobs, polling only'); return undefined; });
      wake();
    },
    async stop() {
      stopped = true;
      stopping = true;
      clearTimeout(timer);
      const unlisten = await listening;
      listening = undefined;
      await unlisten?.();
      await polling;
      await Promise.all([...running.values()].map((job) => job.done));
    },
    running: () => [...running.values()].map(({ queue, id: jobId }) => ({ queue, id: jobId })),
  };
}
