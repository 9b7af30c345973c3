import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { TenantScope } from '../tenancy.js';

/** One-time codes (password reset, contact verification): 6 digits, 15 minutes, 5 tries. */
export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

/** A 6-digit code from a cryptographic source. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Codes are stored as an HMAC under the server's secret, bound to their purpose and owner (the
 * account they were sent to): a copy of the table alone does not reveal them, and a code is no use
 * for another account or purpose.
 */
export function hashCode(secret: string, purpose: string, ownerId: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${ownerId}:${code}`).digest('hex');
}

export function codeMatches(secret: string, purpose: string, ownerId: string, code: string, storedHash: string): boolean {
  const candidate = Buffer.from(hashCode(secret, purpose, ownerId, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

type CodeTable = 'password_reset_codes' | 'verification_codes';

/** Whose codes: the owner column of the code table (a client's or a staff member's) and its value. */
export interface CodeOwner { column: 'client_id' | 'staff_id'; id: string }

/**
 * Takes one try of the owner's newest live code before it is compared, in one statement, so
 * parallel guesses cannot exceed the limit. Answers the code's row, or undefined when there is no
 * live code (none, used, expired or out of tries).
 */
export async function claimCodeAttempt(scope: TenantScope, table: CodeTable, owner: CodeOwner, now: Date, channel?: 'email' | 'phone') {
  // Both code tables have the same columns (but staff_id, reset codes only); Kysely is told the
  // verification table's for typing.
  const codes = table as 'verification_codes';
  return scope.updateTable(codes)
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', (eb) => {
      let newest = eb.selectFrom(`${codes} as newest`).select('newest.id')
        .where('newest.tenant_id', '=', scope.tenantId).where(`newest.${owner.column}` as 'newest.client_id', '=', owner.id);
      if (channel) newest = newest.where('newest.channel', '=', channel);
      return newest.orderBy('newest.created_at', 'desc').limit(1);
    })
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .returning(table === 'verification_codes' ? ['id', 'code_hash', 'target'] : ['id', 'code_hash'])
    .executeTakeFirst() as Promise<{ id: string; code_hash: string; target?: string } | undefined>;
}
