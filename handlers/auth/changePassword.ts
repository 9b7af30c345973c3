import { sql } from 'kysely';
import { hashPassword, verifyPassword } from '../../server/platform/auth/passwords.js';
import { badRequest } from '../../server/platform/errors.js';
import { consume, LIMITS } from '../../server/platform/rate-limit.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import type { Handler } from '../types.js';
import { clientId } from '../../server/platform/actor.js';
import { accessTokenFor } from '../../server/domain/clients/session.js';

/** Changes the signed-in client's password and signs every older token out. */
export const changePassword: Handler<'changePassword'> = async (ctx, req) => {
  const id = clientId(ctx);
  await consume(ctx.db, `password-change:${ctx.tenant.id}:${id}`, LIMITS.passwordChangePerAccount, ctx.clock.now());
  const { oldPassword, newPassword } = req.body;
  const client = await ctx.scope.selectFrom('clients').select(['password_hash']).where('id', '=', id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(client.password_hash, oldPassword))) {
    throw badRequest('body.oldPassword is not the current password', 'INVALID_OLD_PASSWORD');
  }
  if (newPassword === oldPassword) throw badRequest('body.newPassword must differ from body.oldPassword');
  const passwordHash = await hashPassword(newPassword);

  const updated = await ctx.scope.transaction(async (scope) => {
    // Bumping the session version is what retires every token issued before this change.
    const row = await scope.updateTable('clients')
      .set({ password_hash: passwordHash, session_version: sql`session_version + 1`, updated_at: ctx.clock.now() })
      .where('id', '=', id)
      .returning(['id', 'session_version', 'email', 'phone_number'])
      .executeTakeFirstOrThrow();
    await notifyClient(ctx, scope, row, {
      title: 'Your password was changed',
      body: `The password of your ${ctx.tenant.name} account was changed. If this was not you, reset it now and contact support.`,
      message: { template: 'password-changed' },
    });
    return row;
  });
  return { message: 'Password changed', data: await accessTokenFor(ctx, updated) };
};
