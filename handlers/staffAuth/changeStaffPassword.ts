import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { changePassword } from '../../server/domain/accounts/passwords.js';
import { staffAccounts } from '../../server/domain/staff/account.js';
import { staffSession } from '../../server/domain/staff/session.js';

/** Changes the signed-in staff member's password, signs every older token and session out, and opens a new session. */
export const changeStaffPassword: Handler<'changeStaffPassword'> = async (ctx, req) => {
  const updated = await changePassword(ctx, staffAccounts, staffId(ctx), req.body);
  return { message: 'Password changed', data: await staffSession(ctx, updated) };
};
