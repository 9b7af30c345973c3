import type { ClientRow } from '../../platform/db/schema.js';
import type { HandlerContext } from '../../platform/context.js';
import { openSession, refreshSession } from '../accounts/session.js';
import { countSignInFromAddress } from '../accounts/sign-in.js';
import { toClientAccount } from './account.js';

type ClientSessionContext = Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'signAccessToken' | 'signStaffAccessToken' | 'tenant'>;

/** A new session for a client (its access and refresh tokens), in the shape every auth answer uses. */
export async function clientSession(ctx: ClientSessionContext, client: Pick<ClientRow, 'id' | 'session_version'>) {
  return openSession(ctx, { kind: 'client', id: client.id, sessionVersion: client.session_version });
}

/** The client's account with a new session: what signup and login answer. */
export async function signedIn(ctx: ClientSessionContext, client: ClientRow) {
  return { data: { ...toClientAccount(client, ctx.clock.now()), ...(await clientSession(ctx, client)) } };
}

/**
 * Renews a client's session with its refresh token, under the login's per-address limit: the
 * account with a new access token and the family's next refresh token, as login answers.
 */
export async function refreshedClient(ctx: HandlerContext, refreshToken: string, ip: string) {
  await countSignInFromAddress(ctx, ip, ctx.clock.now());
  const { subjectId, tokens } = await refreshSession(ctx, 'client', refreshToken);
  const client = await ctx.scope.selectFrom('clients').selectAll().where('id', '=', subjectId).executeTakeFirstOrThrow();
  return { data: { ...toClientAccount(client, ctx.clock.now()), ...tokens } };
}
