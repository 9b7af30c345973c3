import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import { sql } from 'kysely';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { consume, LIMITS } from '../../platform/rate-limit.js';
import type { TransactionScope } from '../../platform/tenancy.js';
import { contactFor, type PasswordAccount } from './account.js';
import { issueCode, spendCode, tryCode } from './codes.js';
import { notifyAccount } from './notify.js';
import { endSessionsOf } from './session.js';

/**
 * Passwords of any kind of account (clients, staff): changing one with the current one, and
 * resetting a forgotten one with a code. The kind's descriptor says where its rows, codes and
 * notices live; its password bounds are the contract's (validated before these run).
 */

/** The credential cache's tag of an account: dropped once its session ends, so this instance refuses its old tokens at once. */
const sessionTag = (account: PasswordAccount, id: string) => (account.table === 'staff' ? credentialTag.staff(id) : credentialTag.client(id));

/**
 * Sets an account's password hash: bumping the session version is what retires every access token
 * issued before; every refresh token of its sessions is revoked with `reason`.
 */
async function setPasswordHash(scope: TransactionScope, account: PasswordAccount, id: string, passwordHash: string, now: Date,
  reason: 'PASSWORD_CHANGED' | 'PASSWORD_RESET') {
  await endSessionsOf(scope, { kind: account.table === 'staff' ? 'staff' : 'client', id }, reason, now);
  // Both account tables have these columns; Kysely is told the clients' for typing.
  return scope.updateTable(account.table as 'clients')
    .set({ password_hash: passwordHash, session_version: sql`session_version + 1`, updated_at: now })
    .where('id', '=', id)
    .returning(['id', 'session_version', 'email', 'phone_number'])
    .executeTakeFirstOrThrow();
}

/** Changes an account's password, the current one proving who asks; answers the row a new session is opened for. */
export async function changePassword(
  ctx: HandlerContext, account: PasswordAccount, id: string, { oldPassword, newPassword }: { oldPassword: string; newPassword: string },
) {
  await consume(ctx.db, `${account.bucketPrefix}password-change:${ctx.tenant.id}:${id}`, LIMITS.passwordChangePerAccount, ctx.clock.now());
  const current = await ctx.scope.selectFrom(account.table as 'clients').select(['password_hash']).where('id', '=', id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(current.password_hash, oldPassword))) {
    throw badRequest('body.oldPassword is not the current password', 'INVALID_OLD_PASSWORD');
  }
  if (newPassword === oldPassword) throw badRequest('body.newPassword must differ from body.oldPassword');
  const passwordHash = await hashPassword(newPassword);

  const changed = await ctx.scope.transaction(async (scope) => {
    const row = await setPasswordHash(scope, account, id, passwordHash, ctx.clock.now(), 'PASSWORD_CHANGED');
    await notifyAccount(ctx, scope, account, row, {
      title: 'Your password was changed',
      body: `The password of your ${ctx.tenant.name} ${account.noun} was changed. If this was not you, reset it now and contact support.`,
      message: { template: MESSAGE_TEMPLATES.passwordChanged },
    });
    return row;
  });
  ctx.credentials.forget(sessionTag(account, id));
  return changed;
}

/** Sends a reset code to the active account `username` names, if there is one; the caller never learns which. */
export async function sendPasswordResetCode(ctx: Pick<HandlerContext, 'clock' | 'config' | 'db' | 'notifier' | 'scope' | 'tenant'>, account: PasswordAccount, { username }: { username: string }, ip: string): Promise<void> {
  const now = ctx.clock.now();
  const name = username.trim();
  await consume(ctx.db, `reset-request:address:${ctx.tenant.id}:${ip}`, LIMITS.resetRequestPerAddress, now);
  await consume(ctx.db, `${account.bucketPrefix}reset-request:account:${ctx.tenant.id}:${name.toLowerCase()}`, LIMITS.resetRequestPerAccount, now);

  const row = await account.findByUsername(ctx.scope, name);
  if (!row || !row.is_active) return;
  await issueCode(ctx, row.id, account.resetCode, now, {
    ...contactFor(row, name), template: MESSAGE_TEMPLATES.passwordResetCode,
  });
}

const invalidResetCode = () => badRequest('The reset code is invalid or has expired', 'INVALID_RESET_CODE');

/** Sets a new password with a reset code; each wrong code uses up one of its tries. */
export async function resetPasswordWithCode(
  ctx: HandlerContext, account: PasswordAccount,
  { username, resetCode, password, passwordConfirm }: { username: string; resetCode: string; password: string; passwordConfirm: string },
  ip: string,
): Promise<void> {
  const now = ctx.clock.now();
  await consume(ctx.db, `reset:address:${ctx.tenant.id}:${ip}`, LIMITS.resetPerAddress, now);
  if (password !== passwordConfirm) throw badRequest('body.passwordConfirm must equal body.password');

  const row = await account.findByUsername(ctx.scope, username);
  if (!row) throw invalidResetCode();
  const attempt = await tryCode(ctx, row.id, account.resetCode, resetCode, now, invalidResetCode);

  const passwordHash = await hashPassword(password);
  await ctx.scope.transaction(async (scope) => {
    await spendCode(scope, account.resetCode, attempt.id, now, invalidResetCode);
    await setPasswordHash(scope, account, row.id, passwordHash, now, 'PASSWORD_RESET');
    await notifyAccount(ctx, scope, account, row, {
      title: 'Your password was reset',
      body: `The password of your ${ctx.tenant.name} ${account.noun} was reset with a code. If this was not you, contact support.`,
      message: { template: MESSAGE_TEMPLATES.passwordReset },
    });
  });
  ctx.credentials.forget(sessionTag(account, row.id));
}
