import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../db/schema.js';

/**
 * A small job queue on our own `jobs` table (migration 20261126_009), for background work every
 * instance shares: webhook deliveries, messages, scheduled jobs (due direct debits), later expiry
 * and notifications.
 *
 * Why not pg-boss or graphile-worker: both are well kept, but both need a real PostgreSQL server
 * (their own connection pools, advisory locks) and would not run on embedded PGlite, the default
 * database of `npm start` and `npm test`; their current releases also need Node 22, where this API
 * supports Node 20.19+. The part we need is small: enqueue (once, with a dedupe key), a notice at
 * commit that jobs were inserted (migration 034's trigger, on `JOBS_CHANNEL`: workers poll at once),
 * claim with `FOR UPDATE SKIP LOCKED` (on PostgreSQL, concurrent workers never get the same job;
 * PGlite is one session, so workers there are serial anyway), a short lease that the worker renews
 * while the job runs, so a crashed worker's job is taken again soon after, and retries with backoff.
 *
 * Delivery is at least once (a worker may die after the work and before `complete`): handlers
 * must be safe to run twice, as the due-debit job is.
 */

export type Job = Selectable<JobsTable>;
type Db = Kysely<Database>;

/**
 * How long a claimed job is its worker's before another may take it again, unless renewed: its
 * worker renews it every third of it while the job runs, so only a crashed (or cut off) worker's
 * job waits for it to end.
 */
export const DEFAULT_LEASE_MS = 30_000;
/** The channel migration 034's trigger notifies, at commit, when a statement inserted jobs. */
export const JOBS_CHANNEL = 'coverline_jobs';
/** Retries wait 30 s, 1 min, 2 min... at most an hour. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 60 * 60_000;
/** Finished jobs are kept this long (for a look at what ran), then purged. */
export const KEEP_FINISHED_MS = 7 * 24 * 3600_000;

/** The wait before attempt `attempt + 1`, after `attempt` failed ones. */
export const backoffMs = (attempt: number) => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), BACKOFF_MAX_MS);

/** A failure no retry can mend (a rejected address, a refused credential): the job fails at once. */
export class FinalFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FinalFailure';
  }
}

export interface EnqueueOptions {
  queue: string;
  payload?: Record<string, unknown>;
  /** Not before this time (now when left out). */
  runAt?: Date;
  /** A job with this key is enqueued once, ever (until purged): later enqueues are no-ops. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/** Adds a job; with a dedupe key already used, adds nothing and answers the existing job's id. */
export async function enqueue(db: Db, options: EnqueueOptions, now: Date): Promise<{ id: string; created: boolean }> {
  const inserted = await db.insertInto('jobs').values({
    queue: options.queue,
    payload: JSON.stringify(options.payload ?? {}),
    run_at: options.runAt ?? now,
    dedupe_key: options.dedupeKey ?? null,
    ...(options.maxAttempts ? { max_attempts: options.maxAttempts } : {}),
    created_at: now,
    updated_at: now,
  }).onConflict((oc) => oc.column('dedupe_key').doNothing()).returning('id').executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await db.selectFrom('jobs').select('id').where('dedupe_key', '=', options.dedupeKey!).executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

export interface ClaimOptions {
  queues: readonly string[];
  workerId: string;
  limit?: number;
  leaseMs?: number;
}

/**
 * Claims up to `limit` ready jobs (due, unfinished, not held by a live lease), oldest first, for
 * one worker: each gets a lease and one more attempt. Rows other workers are claiming at the same
 * moment are skipped, not waited for (FOR UPDATE SKIP LOCKED), so no two workers get one job.
 */
export async function claim(db: Db, options: ClaimOptions, now: Date): Promise<Job[]> {
  if (!options.queues.length) return [];
  const until = new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS));
  // A job whose worker died on its last attempt is not retried: it has failed. (Rows another
  // worker holds are skipped here too: nothing in a claim waits for another claim.)
  await db
    .with((cte) => cte('stale').materialized(), (q) => q.selectFrom('jobs').select('id')
      .where('queue', 'in', options.queues).where('done_at', 'is', null).where('failed_at', 'is', null)
      .where('locked_until', '<', now).whereRef('attempts', '>=', 'max_attempts')
      .forUpdate().skipLocked())
    .updateTable('jobs')
    .from('stale')
    .set({ failed_at: now, locked_by: null, locked_until: null, updated_at: now,
      last_error: sql`coalesce(jobs.last_error || '; ', '') || 'lease expired on the last attempt'` })
    .whereRef('jobs.id', '=', 'stale.id')
    .execute();
  return db
    .with((cte) => cte('ready').materialized(), (q) => q.selectFrom('jobs').select('id')
      .where('queue', 'in', options.queues).where('done_at', 'is', null).where('failed_at', 'is', null)
      .where('run_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .whereRef('attempts', '<', 'max_attempts')
      .orderBy('run_at').orderBy('id')
      .limit(options.limit ?? 1)
      .forUpdate().skipLocked())
    .updateTable('jobs')
    .from('ready')
    .set({ locked_by: options.workerId, locked_until: until, attempts: sql`jobs.attempts + 1`, updated_at: now })
    .whereRef('jobs.id', '=', 'ready.id')
    .returningAll('jobs')
    .execute();
}

/**
 * When a job of `queues` next becomes claimable after `now`: the earliest run_at still ahead, or
 * the earliest end of a lease held now (a crashed worker's job is taken again then). Null: none.
 * One index probe per queue for the first (any number of retries waiting); the second reads only
 * the due jobs, which are held ones when a claim has just taken every ready one.
 */
export async function nextDue(db: Db, queues: readonly string[], now: Date): Promise<Date | null> {
  if (!queues.length) return null;
  const { rows: [row] } = await sql<{ next: Date | null }>`select min(due.at) as next
    from (values ${sql.join(queues.map((queue) => sql`(${queue})`))}) as queue(name)
    cross join lateral (
      select min(run_at) as at from jobs
        where jobs.queue = queue.name and done_at is null and failed_at is null and run_at > ${now}
      union all
      select min(locked_until) from jobs
        where jobs.queue = queue.name and done_at is null and failed_at is null and run_at <= ${now} and locked_until >= ${now}
    ) as due`.execute(db);
  return row?.next ? new Date(row.next) : null;
}

/**
 * Extends a claimed job's lease to `now + leaseMs` (its worker's heartbeat while it runs); false
 * when the job is no longer this worker's: finished, or its lease ended and another worker claimed
 * it (a claim adds an attempt), or it was failed as stale.
 */
export async function renewLease(db: Db, job: Pick<Job, 'id' | 'attempts'>, workerId: string, leaseMs: number, now: Date): Promise<boolean> {
  const renewed = await db.updateTable('jobs').set({ locked_until: new Date(now.getTime() + leaseMs), updated_at: now })
    .where('id', '=', job.id).where('locked_by', '=', workerId).where('attempts', '=', job.attempts)
    .where('done_at', 'is', null).where('failed_at', 'is', null)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

/**
 * Gives back a claimed job this worker will not start (it is stopping): unlocked, and the attempt
 * its claim added taken back, so another worker runs it at once as if never claimed.
 */
export async function release(db: Db, job: Pick<Job, 'id' | 'attempts'>, workerId: string, now: Date): Promise<void> {
  await db.updateTable('jobs').set({ locked_by: null, locked_until: null, attempts: sql`jobs.attempts - 1`, updated_at: now })
    .where('id', '=', job.id).where('locked_by', '=', workerId).where('attempts', '=', job.attempts).where('done_at', 'is', null)
    .execute();
}

/** Marks a claimed job done; false when the worker's lease was lost and another took it. */
export async function complete(db: Db, job: Pick<Job, 'id' | 'attempts'>, workerId: string, now: Date): Promise<boolean> {
  const done = await db.updateTable('jobs').set({ done_at: now, locked_by: null, locked_until: null, updated_at: now })
    .where('id', '=', job.id).where('locked_by', '=', workerId).where('attempts', '=', job.attempts).where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/**
 * Records a claimed job's failure: it runs again after a backoff, or, out of attempts or on a
 * `FinalFailure`, is kept as failed with its last error. Answers when it will run again (null: never).
 */
export async function fail(db: Db, job: Pick<Job, 'id' | 'attempts' | 'max_attempts'>, workerId: string, error: unknown, now: Date)
  : Promise<{ retryAt: Date | null }> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  const retryAt = job.attempts < job.max_attempts && !(error instanceof FinalFailure) ? new Date(now.getTime() + backoffMs(job.attempts)) : null;
  await db.updateTable('jobs').set({
    last_error: message, locked_by: null, locked_until: null, updated_at: now,
    ...(retryAt ? { run_at: retryAt } : { failed_at: now }),
  }).where('id', '=', job.id).where('locked_by', '=', workerId).where('attempts', '=', job.attempts).execute();
  return { retryAt };
}

/** Deletes jobs finished (done or failed) before `now - keepMs`. */
export async function purgeFinished(db: Db, now: Date, keepMs = KEEP_FINISHED_MS): Promise<number> {
  const cutoff = new Date(now.getTime() - keepMs);
  const gone = await db.deleteFrom('jobs')
    .where((eb) => eb.or([eb('done_at', 'is not', null), eb('failed_at', 'is not', null)]))
    .where(sql<boolean>`coalesce(done_at, failed_at) < ${cutoff}`)
    .executeTakeFirst();
  return Number(gone.numDeletedRows);
}
