import type { Handler } from '../../server/platform/handler-types.js';
import { callerToken } from '../../server/platform/actor.js';
import { revokeToken } from '../../server/domain/accounts/session.js';

/** Revokes the staff token the call was made with. */
export const staffLogout: Handler<'staffLogout'> = async (ctx) => {
  const { tokenId, expiresAt } = callerToken(ctx);
  await revokeToken(ctx, tokenId, expiresAt);
  return { message: 'Logged out' };
};
