import type { HandlerContext } from '../../platform/context.js';
import type { StaffRow } from '../../platform/db/schema.js';
import { bearerToken } from '../accounts/session.js';
import { staffProfile } from './view.js';

/** A fresh staff access token (`kind: staff`: it passes staff calls only), in the shape every auth answer uses. */
export async function staffAccessToken(ctx: Pick<HandlerContext, 'signStaffAccessToken' | 'tenant'>, member: Pick<StaffRow, 'id' | 'session_version'>) {
  return bearerToken(await ctx.signStaffAccessToken({ tenantId: ctx.tenant.id, staffId: member.id, sessionVersion: member.session_version }));
}

/** The staff member's profile with a fresh access token: what a staff login answers. */
export async function staffSignedIn(ctx: Pick<HandlerContext, 'scope' | 'signStaffAccessToken' | 'tenant'>, member: Pick<StaffRow, 'id' | 'session_version'>) {
  return { data: { ...(await staffProfile(ctx.scope, member.id)), ...(await staffAccessToken(ctx, member)) } };
}
