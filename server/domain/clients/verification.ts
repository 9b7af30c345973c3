import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { consume, LIMITS } from '../../platform/rate-limit.js';
import { toClientAccount, type ClientAccount } from './account.js';
import { issueCode, spendCode, tryCode, verificationCode } from '../accounts/codes.js';
import { lockedClient, recordClientChange } from './events.js';

type Channel = components['schemas']['VerificationCodeRequest']['type'];

const labelOf = (type: Channel) => (type === 'email' ? 'email' : 'phone number');

/** Sends a code to the client's current email or phone number, replacing any earlier one; answers what it went to ("email"). */
export async function sendContactCode(ctx: Pick<HandlerContext, 'clock' | 'config' | 'db' | 'notifier' | 'scope' | 'tenant'>, clientId: string, type: Channel): Promise<string> {
  const now = ctx.clock.now();
  const client = await ctx.scope.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow();
  const target = type === 'email' ? client.email : client.phone_number;
  const label = labelOf(type);
  if (!target) throw badRequest(`The account has no ${label} to verify`, 'NO_CONTACT');
  if ((type === 'email' ? client.email_verified_at : client.phone_verified_at) !== null) {
    throw badRequest(`The ${label} is already verified`, 'ALREADY_VERIFIED');
  }
  await consume(ctx.db, `verify-send:${ctx.tenant.id}:${clientId}`, LIMITS.verificationSendPerAccount, now);

  await issueCode(ctx, clientId, verificationCode(type), now, {
    channel: type === 'email' ? 'email' : 'sms', recipient: target,
    template: type === 'email' ? MESSAGE_TEMPLATES.verifyEmail : MESSAGE_TEMPLATES.verifyPhone,
  }, target);
  return label;
}

const invalidCode = () => badRequest('The verification code is invalid or has expired', 'INVALID_VERIFICATION_CODE');

/** Confirms the email or phone number a code was sent to, if it is still the client's (`client.updated`). */
export async function verifyContact(ctx: Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'reactions' | 'eventSnapshots'>, clientId: string, type: Channel, code: string): Promise<ClientAccount> {
  const now = ctx.clock.now();
  const kind = verificationCode(type);
  const attempt = await tryCode(ctx, clientId, kind, code, now, invalidCode);

  const updated = await ctx.scope.transaction(async (scope) => {
    await spendCode(scope, kind, attempt.id, now, invalidCode);
    const before = await lockedClient(scope, clientId);
    // Only the contact the code went to is proven: if it changed since, nothing is verified.
    const row = await scope.updateTable('clients')
      .set(type === 'email' ? { email_verified_at: now } : { phone_verified_at: now })
      .where('id', '=', clientId)
      .where(type === 'email' ? 'email' : 'phone_number', '=', attempt.target!)
      .returningAll().executeTakeFirst();
    if (!row) throw invalidCode();
    await recordClientChange(ctx, scope, { by: 'client', id: clientId }, 'client.updated', before, row, now);
    return row;
  });
  return toClientAccount(updated, now);
}
