import type { HandlerContext } from '../../platform/context.js';
import type { StaffRow } from '../../platform/db/schema.js';
import { openSession, refreshSession, type ReuseRecorder } from '../accounts/session.js';
import { countSignInFromAddress } from '../accounts/sign-in.js';
import { staffProfile } from './view.js';

type StaffSessionContext = Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'signAccessToken' | 'signStaffAccessToken' | 'tenant'>;

/** A new staff session (`kind: staff`: its access token passes staff calls only), in the shape every auth answer uses. */
export async function staffSession(ctx: StaffSessionContext, member: Pick<StaffRow, 'id' | 'session_version'>) {
  return openSession(ctx, { kind: 'staff', id: member.id, sessionVersion: member.session_version });
}

/** The staff member's profile with a new session: what a staff login answers. */
export async function staffSignedIn(ctx: StaffSessionContext, member: Pick<StaffRow, 'id' | 'session_version'>) {
  return { data: { ...(await staffProfile(ctx.scope, member.id)), ...(await staffSession(ctx, member)) } };
}

/**
 * A staff member's spent refresh token came back: their row records when, so the audit trail
 * (`refreshStaffToken` calls are audited as the member's own, server/app/routes.ts) shows it.
 */
const recordStaffReuse: ReuseRecorder = async (scope, staffId, now) => {
  await scope.updateTable('staff').set({ refresh_token_reused_at: now }).where('id', '=', staffId).execute();
};

/**
 * Renews a staff session with its refresh token, under the login's per-address limit: the profile
 * with a new access token and the family's next refresh token, as a staff login answers.
 */
export async function refreshedStaff(ctx: HandlerContext, refreshToken: string, ip: string) {
  await countSignInFromAddress(ctx, ip, ctx.clock.now());
  const { subjectId, tokens } = await refreshSession(ctx, 'staff', refreshToken, recordStaffReuse);
  return { data: { ...(await staffProfile(ctx.scope, subjectId)), ...tokens } };
}
