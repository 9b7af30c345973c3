import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { badRequest } from '../../platform/errors.js';
import type { HandlerContext } from '../../platform/context.js';
import { consume, LIMITS } from '../../platform/rate-limit.js';
import { toClientAccount, type ClientAccount } from './account.js';
import { retireCodes, verificationCode } from '../accounts/codes.js';
import { checkContactFree, contactConflict } from './rules.js';
import { notifyClient } from '../accounts/notify.js';
import { lockedClient, recordClientChange } from './events.js';

const KINDS = {
  email: { column: 'email', verified: 'email_verified_at', label: 'email', old: 'oldEmail', new: 'newEmail', channel: 'email' },
  phone: { column: 'phone_number', verified: 'phone_verified_at', label: 'phone number', old: 'oldPhoneNumber', new: 'newPhoneNumber', channel: 'sms' },
} as const;

const same = (kind: keyof typeof KINDS, a: string, b: string) => (kind === 'email' ? a.toLowerCase() === b.toLowerCase() : a === b);

/**
 * Changes the account's email or phone number: the old one must be the current one, the new one
 * free in the tenant. The new one needs verifying; the old one is told, so a takeover is noticed;
 * `client.updated` with the old contact and its verification in `previous`.
 */
export async function changeContact(ctx: HandlerContext, clientId: string, kind: keyof typeof KINDS, oldValue: string, newValue: string): Promise<ClientAccount> {
  const k = KINDS[kind];
  const now = ctx.clock.now();
  await consume(ctx.db, `contact-change:${ctx.tenant.id}:${clientId}`, LIMITS.contactChangePerAccount, now);
  const client = await ctx.scope.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow();
  const current = client[k.column];
  if (!current || !same(kind, current, oldValue.trim())) throw badRequest(`body.${k.old} is not the account's ${k.label}`, 'OLD_CONTACT_MISMATCH');
  if (same(kind, current, newValue)) throw badRequest(`body.${k.new} is the account's ${k.label} already`);

  const updated = await ctx.scope.transaction(async (scope) => {
    const before = await lockedClient(scope, clientId);
    await checkContactFree(scope, kind === 'email' ? { email: newValue } : { phoneNumber: newValue }, clientId);
    const row = await scope.updateTable('clients')
      .set({ [k.column]: newValue, [k.verified]: null, updated_at: now })
      .where('id', '=', clientId).returningAll().executeTakeFirstOrThrow().catch(contactConflict);
    // Codes sent to the old contact must not verify the new one.
    await retireCodes(scope, clientId, verificationCode(kind), now);
    await recordClientChange(ctx, scope, { by: 'client', id: clientId }, 'client.updated', before, row, now);
    await notifyClient(ctx, scope, row, {
      title: `Your ${k.label} was changed`,
      body: `The ${k.label} of your ${ctx.tenant.name} account was changed. If this was not you, contact support now.`,
      message: { template: kind === 'email' ? MESSAGE_TEMPLATES.emailChanged : MESSAGE_TEMPLATES.phoneNumberChanged, to: { channel: k.channel, recipient: current } },
    });
    return row;
  });
  return toClientAccount(updated, now);
}
