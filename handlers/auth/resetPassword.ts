import type { Handler } from '../../server/platform/handler-types.js';
import { resetPasswordWithCode } from '../../server/domain/accounts/passwords.js';
import { clientAccounts } from '../../server/domain/clients/account.js';

/** Sets a new password with a reset code; each wrong code uses up one of its tries. */
export const resetPassword: Handler<'resetPassword'> = async (ctx, req) => {
  await resetPasswordWithCode(ctx, clientAccounts, req.body, req.ip);
  return { message: 'Password reset; log in with the new password' };
};
