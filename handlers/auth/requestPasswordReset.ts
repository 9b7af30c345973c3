import type { Handler } from '../../server/platform/handler-types.js';
import { sendPasswordResetCode } from '../../server/domain/accounts/passwords.js';
import { clientAccounts } from '../../server/domain/clients/account.js';

/** Sends a reset code to the account, if there is one; the answer never says which. */
export const requestPasswordReset: Handler<'requestPasswordReset'> = async (ctx, req) => {
  await sendPasswordResetCode(ctx, clientAccounts, req.body, req.ip);
  return { message: 'If an account matches, a reset code has been sent to it' };
};
