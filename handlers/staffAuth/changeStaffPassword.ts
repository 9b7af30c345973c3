import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { changePassword } from '../../server/domain/accounts/passwords.js';
import { staffAccounts } from '../../server/domain/staff/account.js';
import { staffAccessToken } from '../../server/domain/staff/session.js';

/** Changes the signed-in staff member's password and signs every older token out. */
export const changeStaffPassword: Handler<'changeStaffPassword'> = async (ctx, req) => {
  const updated = await changePassword(ctx, staffAccounts, staffId(ctx), req.body);
  return { message: 'Password changed', data: await staffAccessToken(ctx, updated) };
};
