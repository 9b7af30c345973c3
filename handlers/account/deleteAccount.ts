import { clientId } from '../../server/platform/actor.js';
import { closeOwnAccount } from '../../server/domain/clients/close.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Closes the signed-in client's account, its password confirming it (see closeAccount for what stays). */
export const deleteAccount: Handler<'deleteAccount'> = async (ctx, req) => {
  await closeOwnAccount(ctx, clientId(ctx), req.body);
  return { message: 'Account deleted' };
};
