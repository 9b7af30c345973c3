import type { ClientRow } from '../../platform/db/schema.js';
import type { HandlerContext } from '../../platform/context.js';
import { toClientAccount } from './account.js';

/** A fresh access token for a client, in the shape every auth answer uses. */
export async function accessTokenFor(ctx: HandlerContext, client: Pick<ClientRow, 'id' | 'session_version'>) {
  const { token, expiresAt } = await ctx.signAccessToken({
    tenantId: ctx.tenant.id, clientId: client.id, sessionVersion: client.session_version,
  });
  return { accessToken: token, tokenType: 'Bearer' as const, expiresAt: expiresAt.toISOString() };
}

/** The client's account with a fresh access token: what signup and login answer. */
export async function signedIn(ctx: HandlerContext, client: ClientRow) {
  return { data: { ...toClientAccount(client, ctx.clock.now()), ...(await accessTokenFor(ctx, client)) } };
}

/** Signs one token out: the revocation is a row, so every instance sees it. */
export async function revokeToken(ctx: HandlerContext, tokenId: string, expiresAt: Date) {
  await ctx.scope.insertInto('revoked_tokens', { jti: tokenId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
}
