import { verifyFirebaseToken } from '../../server/platform/auth/firebase.js';
import { verifyPassword } from '../../server/platform/auth/passwords.js';
import type { HandlerContext } from '../../server/platform/context.js';
import { badRequest, unauthorized } from '../../server/platform/errors.js';
import { clear, consume, LIMITS } from '../../server/platform/rate-limit.js';
import { findClientByUsername } from '../../server/domain/clients/account.js';
import type { Handler } from '../types.js';
import { signedIn } from '../../server/domain/clients/session.js';

const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

async function firebaseClient(ctx: HandlerContext, firebaseToken: string) {
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

/** Signs a client in by username and password, or by Firebase ID token. */
export const login: Handler<'login'> = async (ctx, req) => {
  const now = ctx.clock.now();
  await consume(ctx.db, `login:address:${ctx.tenant.id}:${req.ip}`, LIMITS.loginPerAddress, now);
  const body = req.body;
  if ('firebaseToken' in body) {
    const client = await firebaseClient(ctx, body.firebaseToken);
    if (!client.is_active) throw unauthorized('This account is disabled; contact support', 'ACCOUNT_DISABLED');
    return signedIn(ctx, client);
  }

  const accountBucket = `login:account:${ctx.tenant.id}:${body.username.trim().toLowerCase()}`;
  await consume(ctx.db, accountBucket, LIMITS.loginPerAccount, now);
  const client = await findClientByUsername(ctx.scope, body.username);
  // verifyPassword does the same work with or without an account: timing does not tell.
  if (!(await verifyPassword(client?.password_hash, body.password)) || !client) throw invalidCredentials();
  if (!client.is_active) throw unauthorized('This account is disabled; contact support', 'ACCOUNT_DISABLED');
  await clear(ctx.db, accountBucket);
  return signedIn(ctx, client);
};
