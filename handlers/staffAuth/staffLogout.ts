import type { Handler } from '../../server/platform/handler-types.js';
import { callerToken } from '../../server/platform/actor.js';
import { signOut } from '../../server/domain/accounts/session.js';

/** Revokes the staff token the call was made with and its session: the session's refresh tokens and access tokens. */
export const staffLogout: Handler<'staffLogout'> = async (ctx) => {
  await signOut(ctx, callerToken(ctx));
  return { message: 'Logged out' };
};
