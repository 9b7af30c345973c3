import type { Handler } from '../types.js';
import { revokeToken } from '../../server/domain/clients/session.js';

/** Revokes the token the call was made with. */
export const logout: Handler<'logout'> = async (ctx) => {
  if (ctx.actor.kind !== 'client') throw new Error('logout without a client token');
  await revokeToken(ctx, ctx.actor.tokenId, ctx.actor.tokenExpiresAt);
  return { message: 'Logged out' };
};
