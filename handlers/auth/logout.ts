import type { Handler } from '../types.js';

/** Revokes the token the call was made with; the revocation is a row, so every instance sees it. */
export const logout: Handler<'logout'> = async (ctx) => {
  if (ctx.actor.kind !== 'client') throw new Error('logout without a client token');
  await ctx.scope.insertInto('revoked_tokens', { jti: ctx.actor.tokenId, expires_at: ctx.actor.tokenExpiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
  return { message: 'Logged out' };
};
