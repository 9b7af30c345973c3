import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_CODE_MAX_ATTEMPTS = 5;

/** A 6-digit code from a cryptographic source. */
export const newResetCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Codes are stored as an HMAC under the server's secret, bound to the client: a copy of the table
 * alone does not reveal them, and a code for one client is no use for another.
 */
export function hashResetCode(secret: string, clientId: string, code: string): string {
  return createHmac('sha256', secret).update(`password-reset:${clientId}:${code}`).digest('hex');
}

export function resetCodeMatches(secret: string, clientId: string, code: string, storedHash: string): boolean {
  const candidate = Buffer.from(hashResetCode(secret, clientId, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}
