import type { Handler } from '../../server/platform/handler-types.js';
import { resetPasswordWithCode } from '../../server/domain/accounts/passwords.js';
import { staffAccounts } from '../../server/domain/staff/account.js';

/** Sets a staff member's new password with a reset code; each wrong code uses up one of its tries. */
export const resetStaffPassword: Handler<'resetStaffPassword'> = async (ctx, req) => {
  await resetPasswordWithCode(ctx, staffAccounts, req.body, req.ip);
  return { message: 'Password reset; log in with the new password' };
};
