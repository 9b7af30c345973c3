import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import { violatedUniqueConstraint } from './db/errors.js';
import type { Database } from './db/schema.js';
import { ApiError, conflict } from './errors.js';
import type { TenantScope, TransactionScope } from './tenancy.js';

const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request with its key before answering 409. */
const WAIT_MS = 10_000;
/** A claim with no answer this old belongs to a request that died (its work and answer commit together). */
const ABANDONED_MS = 60_000;

/** A request's fingerprint: the same JSON in any key order hashes the same. */
export function requestHash(request: unknown): string {
  const canonical = (value: unknown): unknown => Array.isArray(value) ? value.map(canonical)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]))
      : value;
  return createHash('sha256').update(JSON.stringify(canonical(request ?? null))).digest('hex');
}

/** Whose key it is: keys belong to their caller, a client or a staff member of the tenant. */
export interface KeyOwner { kind: 'client' | 'staff'; id: string }

/** One request sent with an Idempotency-Key. */
export interface IdempotentRequest {
  key: string;
  /** The operationId: a key is the caller's on one operation. */
  operation: string;
  owner: KeyOwner;
  /** `requestHash` of what identifies the request (its path and body); the same key with another fingerprint is 422. */
  fingerprint: string;
}

/** An answer as it was sent: its status and its body's exact text. */
export interface StoredAnswer { status: number; body: string }

/**
 * Runs `work` in one database transaction, once per Idempotency-Key (per tenant, caller, operation
 * and key): the claim on the key is written first (committed, so a duplicate sees it); the work's
 * answer is stored in the work's own transaction, so an answer is replayed only for work that
 * happened, and replayed for 24 hours to a request with the same key and fingerprint
 * (`replayed: true`). The same key with another fingerprint is 422 `IDEMPOTENCY_KEY_REUSED`; a
 * duplicate that arrives while the first runs waits for its answer (409 `IDEMPOTENCY_IN_PROGRESS`
 * past 10 seconds). A failure (the work throws: any 4xx or 5xx) stores nothing and frees the key, so
 * a retry with it runs the work again.
 */
export async function idempotent(scope: TenantScope, clock: Clock, request: IdempotentRequest,
  work: (scope: TransactionScope) => Promise<StoredAnswer>): Promise<StoredAnswer & { replayed: boolean }> {
  const { key, operation, owner, fingerprint } = request;
  const mine = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q => query
    .where('actor_kind', '=', owner.kind).where('actor_id', '=', owner.id).where('operation', '=', operation).where('key', '=', key);

  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = clock.now();
    try {
      await scope.insertInto('idempotency_keys', {
        actor_kind: owner.kind, actor_id: owner.id, operation, key, request_hash: fingerprint, created_at: now, expires_at: new Date(now.getTime() + KEEP_MS),
      }).execute();
      break; // claimed: this request does the work
    } catch (error) {
      if (violatedUniqueConstraint(error) === undefined) throw error;
    }
    const held = await mine(scope.selectFrom('idempotency_keys'))
      .select(['request_hash', 'response_body', 'response_status', 'created_at', 'expires_at']).executeTakeFirst();
    if (!held) continue; // released meanwhile: claim again
    if (new Date(held.expires_at) <= now || (held.response_status === null && now.getTime() - new Date(held.created_at).getTime() > ABANDONED_MS)) {
      await mine(scope.deleteFrom('idempotency_keys')).where('created_at', '=', held.created_at).execute();
      continue;
    }
    if (held.request_hash !== fingerprint) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used with a different request; use a new key for a new request`);
    }
    if (held.response_status !== null && held.response_body !== null) return { status: held.response_status, body: held.response_body, replayed: true };
    if (Date.now() > deadline) {
      throw conflict(`A request with Idempotency-Key ${key} is still being processed; retry later with the same key`, 'IDEMPOTENCY_IN_PROGRESS');
    }
    await sleep(50);
  }

  try {
    const answer = await scope.transaction(async (trx) => {
      const sent = await work(trx);
      await mine(trx.updateTable('idempotency_keys')).set({ response_status: sent.status, response_body: sent.body }).execute();
      return sent;
    });
    return { ...answer, replayed: false };
  } catch (error) {
    // Nothing was done: free the key for a retry (if this fails too, the claim is abandoned in a minute).
    await mine(scope.deleteFrom('idempotency_keys')).where('response_status', 'is', null).execute().catch(() => undefined);
    throw error;
  }
}

/** Keys deleted per statement by the sweep, so it never holds many row locks at once. */
const SWEEP_BATCH = 1000;

/**
 * Deletes every tenant's expired Idempotency-Keys (the sweep job, hourly), in batches. A key
 * reused after expiry is freed on the spot anyway; the sweep keeps the table to the last 24 hours.
 * Answers how many went.
 */
export async function purgeExpiredKeys(db: Kysely<Database>, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await db.deleteFrom('idempotency_keys')
      .where((eb) => eb(eb.refTuple('tenant_id', 'actor_kind', 'actor_id', 'operation', 'key'), 'in',
        eb.selectFrom('idempotency_keys').select(['tenant_id', 'actor_kind', 'actor_id', 'operation', 'key'])
          .where('expires_at', '<=', now).limit(SWEEP_BATCH).$asTuple('tenant_id', 'actor_kind', 'actor_id', 'operation', 'key')))
      .executeTakeFirst();
    const count = Number(gone.numDeletedRows);
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}
