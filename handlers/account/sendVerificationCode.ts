import { CODE_TTL_MS, hashCode, newCode } from '../../server/platform/auth/one-time-codes.js';
import { badRequest } from '../../server/platform/errors.js';
import { consume, LIMITS } from '../../server/platform/rate-limit.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';

/** Sends a code to the account's current email or phone number, replacing any earlier one. */
export const sendVerificationCode: Handler<'sendVerificationCode'> = async (ctx, req) => {
  const id = clientId(ctx);
  const { type } = req.body;
  const now = ctx.clock.now();
  const client = await ctx.scope.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const target = type === 'email' ? client.email : client.phone_number;
  const label = type === 'email' ? 'email' : 'phone number';
  if (!target) throw badRequest(`The account has no ${label} to verify`, 'NO_CONTACT');
  if ((type === 'email' ? client.email_verified_at : client.phone_verified_at) !== null) {
    throw badRequest(`The ${label} is already verified`, 'ALREADY_VERIFIED');
  }
  await consume(ctx.db, `verify-send:${ctx.tenant.id}:${id}`, LIMITS.verificationSendPerAccount, now);

  const code = newCode();
  await ctx.scope.transaction(async (scope) => {
    await scope.updateTable('verification_codes').set({ consumed_at: now })
      .where('client_id', '=', id).where('channel', '=', type).where('consumed_at', 'is', null).execute();
    await scope.insertInto('verification_codes', {
      client_id: id, channel: type, target,
      code_hash: hashCode(ctx.config.jwtSecret, `verify-${type}`, id, code),
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
    }).execute();
    await ctx.notifier.send(scope, {
      channel: type === 'email' ? 'email' : 'sms',
      recipient: target,
      template: `verify-${type}`,
      subject: `Your ${ctx.tenant.name} verification code`,
      body: `Your ${ctx.tenant.name} verification code is ${code}. It expires in 15 minutes.`,
    });
  });
  return { message: `A verification code was sent to your ${label}` };
};
