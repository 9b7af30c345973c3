import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';

/** What every refresh token starts with, so one is told from an access token or an Api-Key at a glance (and by secret scanners). */
export const REFRESH_TOKEN_PREFIX = 'rt_';

/** A new refresh token: `rt_` and 32 random bytes, base64url. Shown once, to the caller; stored as its hash. */
export const newRefreshToken = () => newOpaqueToken(REFRESH_TOKEN_PREFIX);

/** The SHA-256 (hex) a refresh token is stored and looked up by. */
export const hashRefreshToken = hashOpaqueToken;

/** Rows deleted per statement by the sweep, so it never holds many row locks at once. */
const SWEEP_BATCH = 1000;

/**
 * Deletes, in batches, every tenant's refresh tokens whose session has ended (past the family's
 * `expires_at`: refused as expired anyway, and a reuse of one no longer needs telling apart) and
 * access-token revocations past the token's own expiry (refused as expired anyway). The sweep
 * job, hourly. Answers how many rows went.
 */
export async function purgeEndedSessions(db: Kysely<Database>, now: Date): Promise<number> {
  const sweep = async (deleteBatch: () => Promise<{ numDeletedRows: bigint }>) => {
    let total = 0;
    for (;;) {
      const count = Number((await deleteBatch()).numDeletedRows);
      total += count;
      if (count < SWEEP_BATCH) return total;
    }
  };
  const sessions = await sweep(() => db.deleteFrom('refresh_tokens')
    .where('id', 'in', db.selectFrom('refresh_tokens').select('id').where('expires_at', '<=', now).limit(SWEEP_BATCH)).executeTakeFirst());
  const revocations = await sweep(() => db.deleteFrom('revoked_tokens')
    .where('jti', 'in', db.selectFrom('revoked_tokens').select('jti').where('expires_at', '<=', now).limit(SWEEP_BATCH)).executeTakeFirst());
  return sessions + revocations;
}
