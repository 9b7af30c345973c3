import type { Handler } from '../../server/platform/handler-types.js';
import { sendPasswordResetCode } from '../../server/domain/accounts/passwords.js';
import { staffAccounts } from '../../server/domain/staff/account.js';

/** Sends a reset code to the active staff member, if there is one; the answer never says which. */
export const requestStaffPasswordReset: Handler<'requestStaffPasswordReset'> = async (ctx, req) => {
  await sendPasswordResetCode(ctx, staffAccounts, req.body, req.ip);
  return { message: 'If an account matches, a reset code has been sent to it' };
};
