import { sql } from 'kysely';
import type { Db } from './db/database.js';
import { tooManyRequests } from './errors.js';

export interface Limit {
  /** Hits allowed in one window. */
  max: number;
  windowSeconds: number;
}

/**
 * Counts a hit on a bucket in the database (so every instance shares the count) and throws 429
 * with Retry-After (and the RateLimit fields) once the window's allowance is used up. A window opens on the first hit.
 */
export async function consume(db: Db, bucket: string, limit: Limit, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
  const { rows } = await sql<{ hits: number; window_started_at: Date }>`
    insert into rate_limit_buckets (bucket, window_started_at, hits) values (${bucket}, ${now}, 1)
    on conflict (bucket) do update set
      hits = case when rate_limit_buckets.window_started_at <= ${windowStart} then 1 else rate_limit_buckets.hits + 1 end,
      window_started_at = case when rate_limit_buckets.window_started_at <= ${windowStart} then ${now} else rate_limit_buckets.window_started_at end
    returning hits, window_started_at`.execute(db);
  const { hits, window_started_at: started } = rows[0];
  if (hits > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((new Date(started).getTime() + limit.windowSeconds * 1000 - now.getTime()) / 1000));
    const refusal = tooManyRequests(retryAfter, limit.max);
    refusedBy.set(refusal, limitName(bucket));
    throw refusal;
  }
}

const refusedBy = new WeakMap<object, string>();

/** The limit a 429 of `consume` refused for (`limitName`); undefined for any other error. */
export function refusedLimit(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? refusedBy.get(error) : undefined;
}

const WORD = /^[a-z]+(-[a-z]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;

/**
 * A bucket's limit as metrics name it: its leading words, up to the first part that varies (a
 * tenant's id, an address, an account), so `login:account:<tenant>:id:<client>` is `login:account`.
 * The names are the code's bucket prefixes, a short fixed list: never an id or an address.
 */
export function limitName(bucket: string): string {
  const words: string[] = [];
  for (const part of bucket.split(':')) {
    if (!WORD.test(part) || UUID.test(part) || part.length > 40) break;
    words.push(part);
  }
  return words.length ? words.join(':') : 'other';
}

/** Forgets a bucket's hits (after a successful login, failures before it no longer count). */
export async function clear(db: Db, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limit_buckets').where('bucket', '=', bucket).execute();
}

export const LIMITS = {
  loginPerAccount: { max: 10, windowSeconds: 15 * 60 },
  loginPerAddress: { max: 50, windowSeconds: 15 * 60 },
  resetRequestPerAccount: { max: 3, windowSeconds: 60 * 60 },
  resetRequestPerAddress: { max: 20, windowSeconds: 60 * 60 },
  resetPerAddress: { max: 30, windowSeconds: 60 * 60 },
  passwordChangePerAccount: { max: 10, windowSeconds: 15 * 60 },
  verificationSendPerAccount: { max: 3, windowSeconds: 60 * 60 },
  contactChangePerAccount: { max: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;
