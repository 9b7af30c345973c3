import { sql } from 'kysely';
import type { components } from '../../../generated/api.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { consume, LIMITS } from '../../platform/rate-limit.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { contactFor, findClientByUsername } from './account.js';
import { issueCode, passwordResetCode, spendCode, tryCode } from './codes.js';
import { notifyClient } from './notifications.js';

type Schemas = components['schemas'];

/** Sets a client's password hash; bumping the session version is what retires every token issued before. */
async function setPasswordHash(scope: TenantScope, clientId: string, passwordHash: string, now: Date) {
  return scope.updateTable('clients')
    .set({ password_hash: passwordHash, session_version: sql`session_version + 1`, updated_at: now })
    .where('id', '=', clientId)
    .returning(['id', 'session_version', 'email', 'phone_number'])
    .executeTakeFirstOrThrow();
}

/** Changes a client's password, the current one proving who asks; answers the row a new token is signed for. */
export async function changeClientPassword(ctx: HandlerContext, clientId: string, { oldPassword, newPassword }: Schemas['PasswordChange']) {
  await consume(ctx.db, `password-change:${ctx.tenant.id}:${clientId}`, LIMITS.passwordChangePerAccount, ctx.clock.now());
  const client = await ctx.scope.selectFrom('clients').select(['password_hash']).where('id', '=', clientId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(client.password_hash, oldPassword))) {
    throw badRequest('body.oldPassword is not the current password', 'INVALID_OLD_PASSWORD');
  }
  if (newPassword === oldPassword) throw badRequest('body.newPassword must differ from body.oldPassword');
  const passwordHash = await hashPassword(newPassword);

  return ctx.scope.transaction(async (scope) => {
    const row = await setPasswordHash(scope, clientId, passwordHash, ctx.clock.now());
    await notifyClient(ctx, scope, row, {
      title: 'Your password was changed',
      body: `The password of your ${ctx.tenant.name} account was changed. If this was not you, reset it now and contact support.`,
      message: { template: 'password-changed' },
    });
    return row;
  });
}

/** Sends a reset code to the account `username` names, if a live one does; the caller never learns which. */
export async function sendPasswordResetCode(ctx: HandlerContext, body: Schemas['PasswordResetRequest'], ip: string): Promise<void> {
  const now = ctx.clock.now();
  const username = body.username.trim();
  await consume(ctx.db, `reset-request:address:${ctx.tenant.id}:${ip}`, LIMITS.resetRequestPerAddress, now);
  await consume(ctx.db, `reset-request:account:${ctx.tenant.id}:${username.toLowerCase()}`, LIMITS.resetRequestPerAccount, now);

  const client = await findClientByUsername(ctx.scope, username);
  if (!client || !client.is_active) return;
  await issueCode(ctx, client.id, passwordResetCode, now, (code) => ({
    ...contactFor(client, username),
    template: 'password-reset-code',
    subject: 'Your password reset code',
    body: `Your ${ctx.tenant.name} password reset code is ${code}. It expires in 15 minutes. If you did not ask for it, ignore this message.`,
  }));
}

const invalidResetCode = () => badRequest('The reset code is invalid or has expired', 'INVALID_RESET_CODE');

/** Sets a new password with a reset code; each wrong code uses up one of its tries. */
export async function resetPasswordWithCode(ctx: HandlerContext, body: Schemas['PasswordReset'], ip: string): Promise<void> {
  const now = ctx.clock.now();
  const { username, resetCode, password, passwordConfirm } = body;
  await consume(ctx.db, `reset:address:${ctx.tenant.id}:${ip}`, LIMITS.resetPerAddress, now);
  if (password !== passwordConfirm) throw badRequest('body.passwordConfirm must equal body.password');

  const client = await findClientByUsername(ctx.scope, username);
  if (!client) throw invalidResetCode();
  const attempt = await tryCode(ctx, client.id, passwordResetCode, resetCode, now, invalidResetCode);

  const passwordHash = await hashPassword(password);
  await ctx.scope.transaction(async (scope) => {
    await spendCode(scope, passwordResetCode, attempt.id, now, invalidResetCode);
    await setPasswordHash(scope, client.id, passwordHash, now);
    await notifyClient(ctx, scope, client, {
      title: 'Your password was reset',
      body: `The password of your ${ctx.tenant.name} account was reset with a code. If this was not you, contact support.`,
      message: { template: 'password-reset' },
    });
  });
}
