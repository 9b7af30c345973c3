import type { ClientRow } from '../../platform/db/schema.js';
import type { HandlerContext } from '../../platform/context.js';
import { bearerToken } from '../accounts/session.js';
import { toClientAccount } from './account.js';

/** A fresh access token for a client, in the shape every auth answer uses. */
export async function accessTokenFor(ctx: Pick<HandlerContext, 'signAccessToken' | 'tenant'>, client: Pick<ClientRow, 'id' | 'session_version'>) {
  return bearerToken(await ctx.signAccessToken({ tenantId: ctx.tenant.id, clientId: client.id, sessionVersion: client.session_version }));
}

/** The client's account with a fresh access token: what signup and login answer. */
export async function signedIn(ctx: Pick<HandlerContext, 'clock' | 'signAccessToken' | 'tenant'>, client: ClientRow) {
  return { data: { ...toClientAccount(client, ctx.clock.now()), ...(await accessTokenFor(ctx, client)) } };
}
