import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { HandlerContext } from './context.js';
import { violatedUniqueConstraint } from './db/errors.js';
import type { Database } from './db/schema.js';
import { ApiError, conflict } from './errors.js';
import type { TenantScope, TransactionScope } from './tenancy.js';

const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request with its key before answering 409. */
const WAIT_MS = 10_000;
/** A claim with no answer this old belongs to a request that died (its work and answer commit together). */
const ABANDONED_MS = 60_000;

/** A request body's fingerprint: the same JSON in any key order hashes the same. */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown => Array.isArray(value) ? value.map(canonical)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]))
      : value;
  return createHash('sha256').update(JSON.stringify(canonical(body ?? null))).digest('hex');
}

/**
 * Runs `work` in one database transaction, once per Idempotency-Key (per client and operation):
 * the first answer is stored in the same transaction as the work and replayed for 24 hours to a
 * request with the same key and body; a different body gets 422; a duplicate that arrives while
 * the first runs waits for its answer (409 past 10 seconds). A failure stores nothing, so a retry
 * with the key runs the work again. Without a key the work simply runs.
 */
export async function idempotent<T>(ctx: HandlerContext, options: { key: string | undefined; operation: string; clientId: string; body: unknown },
  work: (scope: TransactionScope) => Promise<T>): Promise<T> {
  const { key, operation, clientId } = options;
  if (key === undefined) return ctx.scope.transaction(work);
  const hash = requestHash(options.body);
  const match = (scope: TenantScope) => scope.selectFrom('idempotency_keys')
    .where('client_id', '=', clientId).where('operation', '=', operation).where('key', '=', key);

  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = ctx.clock.now();
    try {
      await ctx.scope.insertInto('idempotency_keys', {
        client_id: clientId, operation, key, request_hash: hash, created_at: now, expires_at: new Date(now.getTime() + KEEP_MS),
      }).execute();
      break; // claimed: this request does the work
    } catch (error) {
      if (violatedUniqueConstraint(error) === undefined) throw error;
    }
    const held = await match(ctx.scope).select(['request_hash', 'response_body', 'response_status', 'created_at', 'expires_at']).executeTakeFirst();
    if (!held) continue; // released meanwhile: claim again
    if (new Date(held.expires_at) <= now || (held.response_status === null && now.getTime() - new Date(held.created_at).getTime() > ABANDONED_MS)) {
      await ctx.scope.deleteFrom('idempotency_keys').where('client_id', '=', clientId).where('operation', '=', operation).where('key', '=', key)
        .where('created_at', '=', held.created_at).execute();
      continue;
    }
    if (held.request_hash !== hash) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request body; use a new key for a new request');
    }
    if (held.response_status !== null) return held.response_body as T;
    if (Date.now() > deadline) throw conflict('A request with this Idempotency-Key is still being processed; retry later', 'IDEMPOTENCY_IN_PROGRESS');
    await sleep(50);
  }

  try {
    return await ctx.scope.transaction(async (scope) => {
      const answer = await work(scope);
      await scope.updateTable('idempotency_keys').set({ response_status: 201, response_body: JSON.stringify(answer) })
        .where('client_id', '=', clientId).where('operation', '=', operation).where('key', '=', key).execute();
      return answer;
    });
  } catch (error) {
    // Nothing was done: free the key for a retry (if this fails too, the claim is abandoned in a minute).
    await ctx.scope.deleteFrom('idempotency_keys').where('client_id', '=', clientId).where('operation', '=', operation).where('key', '=', key)
      .where('response_status', 'is', null).execute().catch(() => undefined);
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
      .where((eb) => eb(eb.refTuple('tenant_id', 'client_id', 'operation', 'key'), 'in',
        eb.selectFrom('idempotency_keys').select(['tenant_id', 'client_id', 'operation', 'key'])
          .where('expires_at', '<=', now).limit(SWEEP_BATCH).$asTuple('tenant_id', 'client_id', 'operation', 'key')))
      .executeTakeFirst();
    const count = Number(gone.numDeletedRows);
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}
