import type { Handler } from '../types.js';
import { resetPasswordWithCode } from '../../server/domain/clients/passwords.js';

/** Sets a new password with a reset code; each wrong code uses up one of its tries. */
export const resetPassword: Handler<'resetPassword'> = async (ctx, req) => {
  await resetPasswordWithCode(ctx, req.body, req.ip);
  return { message: 'Password reset; log in with the new password' };
};
