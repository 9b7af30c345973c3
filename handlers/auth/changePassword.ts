import type { Handler } from '../../server/platform/handler-types.js';
import { clientId } from '../../server/platform/actor.js';
import { changePassword as changeAccountPassword } from '../../server/domain/accounts/passwords.js';
import { clientAccounts } from '../../server/domain/clients/account.js';
import { clientSession } from '../../server/domain/clients/session.js';

/** Changes the signed-in client's password, signs every older token and session out, and opens a new session. */
export const changePassword: Handler<'changePassword'> = async (ctx, req) => {
  const updated = await changeAccountPassword(ctx, clientAccounts, clientId(ctx), req.body);
  return { message: 'Password changed', data: await clientSession(ctx, updated) };
};
