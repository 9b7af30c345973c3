import type { components } from '../../../generated/api.js';
import { verifyFirebaseToken } from '../../platform/auth/firebase.js';
import type { HandlerContext } from '../../platform/context.js';
import type { ClientRow } from '../../platform/db/schema.js';
import { badRequest, unauthorized } from '../../platform/errors.js';
import { checkPassword, countSignInFromAddress } from '../accounts/sign-in.js';
import { findClientByUsername } from './account.js';

/** A disabled client may not sign in, whatever proves who it is. */
function assertActive(client: ClientRow): ClientRow {
  if (!client.is_active) throw unauthorized('This account is disabled; contact support', 'ACCOUNT_DISABLED');
  return client;
}

/** The client a Firebase ID token names: by its linked uid, else by a verified email or a phone number (then linked). */
async function firebaseClient(ctx: Pick<HandlerContext, 'config' | 'scope' | 'tenant'>, firebaseToken: string) {
  const projectId = ctx.tenant.firebaseProjectId;
  if (!projectId) throw badRequest('Firebase login is not enabled for this application', 'FIREBASE_NOT_CONFIGURED');
  const identity = await verifyFirebaseToken(firebaseToken, projectId, ctx.config.firebaseJwksUrl);
  if (!identity) throw unauthorized('The Firebase token is invalid or expired', 'INVALID_FIREBASE_TOKEN');

  const live = () => ctx.scope.selectFrom('clients').selectAll().where('deleted_at', 'is', null);
  const client = await live().where('firebase_uid', '=', identity.uid).executeTakeFirst()
    ?? (identity.email && identity.emailVerified ? await findClientByUsername(ctx.scope, identity.email) : undefined)
    ?? (identity.phoneNumber ? await findClientByUsername(ctx.scope, identity.phoneNumber) : undefined);
  if (!client || (client.firebase_uid && client.firebase_uid !== identity.uid)) {
    throw unauthorized('No account matches this Firebase user; sign up first', 'ACCOUNT_NOT_FOUND');
  }
  if (!client.firebase_uid) {
    // Remember the link, so later logins need neither the email nor the phone claim.
    await ctx.scope.updateTable('clients').set({ firebase_uid: identity.uid }).where('id', '=', client.id).execute();
  }
  return client;
}

/** The active client a login proves, by username and password or by Firebase ID token, under the rate limits. */
export async function authenticateClient(ctx: HandlerContext, body: components['schemas']['LoginRequest'], ip: string): Promise<ClientRow> {
  const now = ctx.clock.now();
  await countSignInFromAddress(ctx, ip, now);
  if ('firebaseToken' in body) return assertActive(await firebaseClient(ctx, body.firebaseToken));
  return checkPassword(ctx, {
    bucket: `login:account:${ctx.tenant.id}`,
    username: body.username,
    password: body.password,
    find: () => findClientByUsername(ctx.scope, body.username),
    admit: assertActive,
  }, now);
}
