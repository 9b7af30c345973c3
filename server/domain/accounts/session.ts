import { credentialTag } from '../../platform/auth/credential-cache.js';
import type { HandlerContext } from '../../platform/context.js';

/** A signed access token in the shape every auth answer uses (the contract's AccessToken), for either kind of account. */
export function bearerToken({ token, expiresAt }: { token: string; expiresAt: Date }) {
  return { accessToken: token, tokenType: 'Bearer' as const, expiresAt: expiresAt.toISOString() };
}

/** Signs one token out, a client's or a staff member's: the revocation is a row, so every instance sees it. */
export async function revokeToken(ctx: Pick<HandlerContext, 'scope' | 'credentials'>, tokenId: string, expiresAt: Date) {
  await ctx.scope.insertInto('revoked_tokens', { jti: tokenId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
  ctx.credentials.forget(credentialTag.token(tokenId));
}
