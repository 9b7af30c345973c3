import { claimCodeAttempt, codeMatches } from '../../server/platform/auth/one-time-codes.js';
import { badRequest } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { toClientAccount } from '../../server/domain/clients/account.js';

const invalidCode = () => badRequest('The verification code is invalid or has expired', 'INVALID_VERIFICATION_CODE');

/** Confirms the email or phone number a code was sent to, if it is still the account's. */
export const verifyAccount: Handler<'verifyAccount'> = async (ctx, req) => {
  const id = clientId(ctx);
  const { type, verificationCode } = req.body;
  const now = ctx.clock.now();
  const attempt = await claimCodeAttempt(ctx.scope, 'verification_codes', id, now, type);
  if (!attempt || !codeMatches(ctx.config.jwtSecret, `verify-${type}`, id, verificationCode, attempt.code_hash)) throw invalidCode();

  const updated = await ctx.scope.transaction(async (scope) => {
    const spent = await scope.updateTable('verification_codes').set({ consumed_at: now })
      .where('id', '=', attempt.id).where('consumed_at', 'is', null).executeTakeFirst();
    if (spent.numUpdatedRows === 0n) throw invalidCode();
    // Only the contact the code went to is proven: if it changed since, nothing is verified.
    const row = await scope.updateTable('clients')
      .set(type === 'email' ? { email_verified_at: now } : { phone_verified_at: now })
      .where('id', '=', id)
      .where(type === 'email' ? 'email' : 'phone_number', '=', attempt.target!)
      .returningAll().executeTakeFirst();
    if (!row) throw invalidCode();
    return row;
  });
  return { data: toClientAccount(updated, now) };
};
