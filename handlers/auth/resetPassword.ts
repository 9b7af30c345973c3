import { sql } from 'kysely';
import { hashPassword } from '../../server/platform/auth/passwords.js';
import { claimCodeAttempt, codeMatches } from '../../server/platform/auth/one-time-codes.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { badRequest } from '../../server/platform/errors.js';
import { consume, LIMITS } from '../../server/platform/rate-limit.js';
import { findClientByUsername } from '../../server/domain/clients/account.js';
import type { Handler } from '../types.js';

const invalidCode = () => badRequest('The reset code is invalid or has expired', 'INVALID_RESET_CODE');

/** Sets a new password with a reset code; each wrong code uses up one of its tries. */
export const resetPassword: Handler<'resetPassword'> = async (ctx, req) => {
  const now = ctx.clock.now();
  const { username, resetCode, password, passwordConfirm } = req.body;
  await consume(ctx.db, `reset:address:${ctx.tenant.id}:${req.ip}`, LIMITS.resetPerAddress, now);
  if (password !== passwordConfirm) throw badRequest('body.passwordConfirm must equal body.password');

  const client = await findClientByUsername(ctx.scope, username);
  if (!client) throw invalidCode();
  const attempt = await claimCodeAttempt(ctx.scope, 'password_reset_codes', client.id, now);
  if (!attempt || !codeMatches(ctx.config.jwtSecret, 'password-reset', client.id, resetCode, attempt.code_hash)) throw invalidCode();

  const passwordHash = await hashPassword(password);
  await ctx.scope.transaction(async (scope) => {
    const spent = await scope.updateTable('password_reset_codes').set({ consumed_at: now })
      .where('id', '=', attempt.id).where('consumed_at', 'is', null).executeTakeFirst();
    if (spent.numUpdatedRows === 0n) throw invalidCode(); // a parallel reset used it first
    await scope.updateTable('clients')
      .set({ password_hash: passwordHash, session_version: sql`session_version + 1`, updated_at: now })
      .where('id', '=', client.id).execute();
    await notifyClient(ctx, scope, client, {
      title: 'Your password was reset',
      body: `The password of your ${ctx.tenant.name} account was reset with a code. If this was not you, contact support.`,
      message: { template: 'password-reset' },
    });
  });
  return { message: 'Password reset; log in with the new password' };
};
