import type { ClientRow } from '../../server/db/schema.js';
import type { HandlerContext } from '../../server/context.js';
import { toClientAccount } from '../account/client-account.js';

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

/** The signed-in client's id; the route's security already required a client token. */
export function clientId(ctx: HandlerContext): string {
  if (ctx.actor.kind !== 'client') throw new Error('route without bearerAuth reached a client-only handler');
  return ctx.actor.clientId;
}
