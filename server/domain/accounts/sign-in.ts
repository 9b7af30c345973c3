import { verifyPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext, Services } from '../../platform/context.js';
import { unauthorized } from '../../platform/errors.js';
import { clear, consume, LIMITS } from '../../platform/rate-limit.js';

/**
 * Counts a sign-in attempt (a login, or a session refreshed with a refresh token) from the
 * caller's address, in the bucket client and staff logins share: past the limit, 429.
 */
export async function countSignInFromAddress(ctx: Pick<HandlerContext, 'db' | 'tenant'>, ip: string, now: Date): Promise<void> {
  await consume(ctx.db, `login:address:${ctx.tenant.id}:${ip}`, LIMITS.loginPerAddress, now);
}

/** The one answer to a wrong username or password, whoever asks: it never says which. */
export const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

/** What a password sign-in checks: the lockout bucket of the account asked for, how to find its row, and what else it must be. */
export interface PasswordAttempt<Row extends { id: string; password_hash: string | null }> {
  /**
   * The lockout bucket's prefix (kind of account and tenant): the account's id is added, so every
   * username that names one account (its email, its phone number) counts toward one lockout; a
   * username that names no account has a bucket of its own.
   */
  bucket: string;
  username: string;
  password: string;
  find: () => Promise<Row | undefined>;
  /** Throws if the row may not sign in (a disabled account); runs before the failures are forgotten. */
  admit: (row: Row) => void;
}

/**
 * The row whose password this is, under the per-account lockout: every try counts, a success
 * forgets the failures. Shared by every kind of account that signs in with a password.
 */
export async function checkPassword<Row extends { id: string; password_hash: string | null }>(
  services: Pick<Services, 'db'>, attempt: PasswordAttempt<Row>, now: Date,
): Promise<Row> {
  const row = await attempt.find();
  const bucket = row ? `${attempt.bucket}:id:${row.id}` : `${attempt.bucket}:name:${attempt.username.trim().toLowerCase()}`;
  await consume(services.db, bucket, LIMITS.loginPerAccount, now);
  // verifyPassword does the same work with or without an account: timing does not tell.
  if (!(await verifyPassword(row?.password_hash, attempt.password)) || !row) throw invalidCredentials();
  attempt.admit(row);
  await clear(services.db, bucket);
  return row;
}
