import { CODE_TTL_MS, hashCode, newCode } from '../../server/platform/auth/one-time-codes.js';
import { consume, LIMITS } from '../../server/platform/rate-limit.js';
import { contactFor, findClientByUsername } from '../../server/domain/clients/account.js';
import type { Handler } from '../types.js';

const ANSWER = { message: 'If an account matches, a reset code has been sent to it' };

/** Sends a reset code to the account, if there is one; the answer never says which. */
export const requestPasswordReset: Handler<'requestPasswordReset'> = async (ctx, req) => {
  const now = ctx.clock.now();
  const username = req.body.username.trim();
  await consume(ctx.db, `reset-request:address:${ctx.tenant.id}:${req.ip}`, LIMITS.resetRequestPerAddress, now);
  await consume(ctx.db, `reset-request:account:${ctx.tenant.id}:${username.toLowerCase()}`, LIMITS.resetRequestPerAccount, now);

  const client = await findClientByUsername(ctx.scope, username);
  if (!client || !client.is_active) return ANSWER;

  const code = newCode();
  await ctx.scope.transaction(async (scope) => {
    // A new code replaces any earlier one.
    await scope.updateTable('password_reset_codes').set({ consumed_at: now })
      .where('client_id', '=', client.id).where('consumed_at', 'is', null).execute();
    await scope.insertInto('password_reset_codes', {
      client_id: client.id,
      code_hash: hashCode(ctx.config.jwtSecret, 'password-reset', client.id, code),
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
    }).execute();
    await ctx.notifier.send(scope, {
      ...contactFor(client, username),
      template: 'password-reset-code',
      subject: 'Your password reset code',
      body: `Your ${ctx.tenant.name} password reset code is ${code}. It expires in 15 minutes. If you did not ask for it, ignore this message.`,
    });
  });
  return ANSWER;
};
