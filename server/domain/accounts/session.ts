import { randomUUID } from 'node:crypto';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import { hashRefreshToken, newRefreshToken } from '../../platform/auth/refresh-tokens.js';
import type { HandlerContext } from '../../platform/context.js';
import type { RefreshTokenRevocation } from '../../platform/db/schema.js';
import { unauthorized } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';

/**
 * Sessions of either kind of account (clients, staff): what a login opens, a refresh token renews
 * and a logout, a password change or reset, a deactivation or a reused refresh token ends.
 *
 * A session is a family of refresh tokens (OAuth 2.0 Security BCP rotation). A login opens one:
 * an access token (short, `JWT_TTL_SECONDS`) whose `sid` claim names the family, and the family's
 * first refresh token (opaque, `rt_` and 256 random bits, stored only as its SHA-256). Each
 * refresh token is spent once: a refresh answers a new access token and the family's next refresh
 * token. A spent one presented again means two holders (a stolen copy, or the app replaying an
 * old one): the whole family is revoked, the legitimate holder's newest token and the session's
 * access tokens with it. A family ends N days after its login whatever its rotations
 * (`CLIENT_REFRESH_TOKEN_DAYS`, `STAFF_REFRESH_TOKEN_DAYS`).
 */

export type SessionKind = 'client' | 'staff';

/** Whose session: the kind of account, its id, and its session version (a later one ends the session). */
export interface SessionSubject { kind: SessionKind; id: string; sessionVersion: number }

/** What every auth answer carries (the contract's AccessToken): the access token and the session's refresh token. */
export interface SessionTokens {
  accessToken: string;
  tokenType: 'Bearer';
  expiresAt: string;
  refreshToken: string;
  refreshTokenExpiresAt: string;
}

type SessionContext = Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'tenant' | 'signAccessToken' | 'signStaffAccessToken'>;

const DAY_MS = 86_400_000;

export const invalidRefreshToken = () => unauthorized('The refresh token is invalid, expired or revoked: sign in again', 'INVALID_REFRESH_TOKEN');

const reusedRefreshToken = () => unauthorized(
  'The refresh token was already used: its session is revoked, every token of it included; sign in again', 'REFRESH_TOKEN_REUSED');

/** An access token of the session `familyId` for the subject, signed for its kind. */
function signAccess(ctx: SessionContext, subject: SessionSubject, familyId: string) {
  const claims = { tenantId: ctx.tenant.id, sessionVersion: subject.sessionVersion, sessionId: familyId };
  return subject.kind === 'client'
    ? ctx.signAccessToken({ ...claims, clientId: subject.id })
    : ctx.signStaffAccessToken({ ...claims, staffId: subject.id });
}

/** The family's next refresh token (its row holds the hash alone) and an access token of the family. */
async function issueTokens(ctx: SessionContext, scope: TenantScope, subject: SessionSubject, familyId: string, familyEnd: Date, now: Date): Promise<SessionTokens> {
  const refreshToken = newRefreshToken();
  await scope.insertInto('refresh_tokens', {
    subject_kind: subject.kind, subject_id: subject.id, family_id: familyId, token_hash: hashRefreshToken(refreshToken),
    session_version: subject.sessionVersion, created_at: now, expires_at: familyEnd,
  }).execute();
  const access = await signAccess(ctx, subject, familyId);
  return {
    accessToken: access.token, tokenType: 'Bearer', expiresAt: access.expiresAt.toISOString(),
    refreshToken, refreshTokenExpiresAt: familyEnd.toISOString(),
  };
}

/** Opens a session (a login, a sign-up, a password change): a new family, ending the kind's configured days from now. */
export async function openSession(ctx: SessionContext, subject: SessionSubject): Promise<SessionTokens> {
  const now = ctx.clock.now();
  const familyEnd = new Date(now.getTime() + ctx.config.refreshTokenDays[subject.kind] * DAY_MS);
  return issueTokens(ctx, ctx.scope, subject, randomUUID(), familyEnd, now);
}

/** The subject's session version if it may still have a session (active, not closed), else undefined. */
async function liveSessionVersion(scope: TenantScope, kind: SessionKind, id: string): Promise<number | undefined> {
  const row = kind === 'client'
    ? await scope.selectFrom('clients').select('session_version').where('id', '=', id)
      .where('is_active', '=', true).where('deleted_at', 'is', null).executeTakeFirst()
    : await scope.selectFrom('staff').select('session_version').where('id', '=', id).where('is_active', '=', true).executeTakeFirst();
  return row?.session_version;
}

/**
 * Ends one session: every refresh token of the family (why, in `revoked_reason`), and every access
 * token of it (a revoked row of the family's id, which the `sid` claim names), on every instance.
 * The caller forgets `credentialTag.token(familyId)` once committed.
 */
async function endFamily(ctx: Pick<HandlerContext, 'config'>, scope: TransactionScope, familyId: string, reason: RefreshTokenRevocation, now: Date) {
  await scope.updateTable('refresh_tokens').set({ revoked_at: now, revoked_reason: reason })
    .where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
  // Past this, every access token the session was given has expired anyway.
  await scope.insertInto('revoked_tokens', { jti: familyId, expires_at: new Date(now.getTime() + ctx.config.jwtTtlSeconds * 1000) })
    .onConflict((oc) => oc.column('jti').doNothing()).execute();
}

/**
 * Ends every session of an account (a password changed or reset, a deactivation), in the caller's
 * transaction. Their access tokens stop by the session version the same change moves on.
 */
export async function endSessionsOf(scope: TransactionScope, subject: { kind: SessionKind; id: string }, reason: RefreshTokenRevocation, now: Date) {
  await scope.updateTable('refresh_tokens').set({ revoked_at: now, revoked_reason: reason })
    .where('subject_kind', '=', subject.kind).where('subject_id', '=', subject.id).where('revoked_at', 'is', null).execute();
}

/** What `refreshSession` does when a spent token comes back, besides revoking its family (staff: the audit trail). */
export type ReuseRecorder = (scope: TransactionScope, subjectId: string, now: Date) => Promise<void>;

type Rotation =
  | { outcome: 'rotated'; subjectId: string; tokens: SessionTokens }
  | { outcome: 'reused'; familyId: string }
  | { outcome: 'invalid' };

/**
 * Spends a refresh token of the kind asked for and answers the family's next one with a new access
 * token. Unknown (or another tenant's, or the other kind's), revoked or expired: 401
 * INVALID_REFRESH_TOKEN, as is one whose account is deactivated or whose session version moved on.
 * Already spent: the family is revoked and recorded (the reuse is committed), then 401
 * REFRESH_TOKEN_REUSED. The token's row is locked, so of two refreshes racing with one token the
 * second sees it spent.
 */
export async function refreshSession(
  ctx: SessionContext & Pick<HandlerContext, 'credentials'>, kind: SessionKind, refreshToken: string, recordReuse?: ReuseRecorder,
): Promise<{ subjectId: string; tokens: SessionTokens }> {
  const now = ctx.clock.now();
  const rotation = await ctx.scope.transaction(async (scope): Promise<Rotation> => {
    const row = await scope.selectFrom('refresh_tokens').selectAll()
      .where('token_hash', '=', hashRefreshToken(refreshToken)).forUpdate().executeTakeFirst();
    if (!row || row.subject_kind !== kind || row.revoked_at !== null || row.expires_at.getTime() <= now.getTime()) return { outcome: 'invalid' };
    if (row.used_at !== null) {
      await endFamily(ctx, scope, row.family_id, 'REUSED', now);
      await recordReuse?.(scope, row.subject_id, now);
      return { outcome: 'reused', familyId: row.family_id };
    }
    if ((await liveSessionVersion(scope, kind, row.subject_id)) !== row.session_version) return { outcome: 'invalid' };
    await scope.updateTable('refresh_tokens').set({ used_at: now }).where('id', '=', row.id).execute();
    const subject = { kind, id: row.subject_id, sessionVersion: row.session_version };
    return { outcome: 'rotated', subjectId: row.subject_id, tokens: await issueTokens(ctx, scope, subject, row.family_id, row.expires_at, now) };
  });
  if (rotation.outcome === 'reused') {
    ctx.credentials.forget(credentialTag.token(rotation.familyId));
    throw reusedRefreshToken();
  }
  if (rotation.outcome === 'invalid') throw invalidRefreshToken();
  return rotation;
}

/**
 * Signs one token out, a client's or a staff member's, and the session it belongs to (every
 * refresh and access token of its family): revocations are rows, so every instance sees them.
 */
export async function signOut(ctx: Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'credentials'>,
  { tokenId, expiresAt, sessionId }: { tokenId: string; expiresAt: Date; sessionId?: string }) {
  await ctx.scope.transaction(async (scope) => {
    await scope.insertInto('revoked_tokens', { jti: tokenId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
    if (sessionId) await endFamily(ctx, scope, sessionId, 'LOGOUT', ctx.clock.now());
  });
  ctx.credentials.forget(credentialTag.token(tokenId));
  if (sessionId) ctx.credentials.forget(credentialTag.token(sessionId));
}
