import type { HandlerContext, StaffActor } from './context.js';

/** The signed-in client's id; the route's security already required a client token. */
export function clientId(ctx: HandlerContext): string {
  if (ctx.actor.kind !== 'client') throw new Error('route without bearerAuth reached a client-only handler');
  return ctx.actor.clientId;
}

/** The signed-in staff member's id; the route's security already required a staff token. */
export function staffId(ctx: HandlerContext): string {
  if (ctx.actor.kind !== 'staff') throw new Error('route without staffAuth reached a staff-only handler');
  return ctx.actor.staffId;
}

/** The signed-in staff member with their type, position, department, branch and the call's reach. */
export function staffActor(ctx: HandlerContext): StaffActor {
  if (ctx.actor.kind !== 'staff') throw new Error('route without staffAuth reached a staff-only handler');
  return ctx.actor;
}

/** The access token the call was made with, a client's or a staff member's: its id, when it expires and its session (refresh token family), if any. */
export function callerToken(ctx: HandlerContext): { tokenId: string; expiresAt: Date; sessionId?: string } {
  if (ctx.actor.kind === 'anonymous') throw new Error('route without a token reached a signed-in handler');
  return { tokenId: ctx.actor.tokenId, expiresAt: ctx.actor.tokenExpiresAt, sessionId: ctx.actor.sessionId };
}

/**
 * The signed-in staff member as the organisation rules need them: who, their position, where they
 * sit, and the reach the permission table gave them for this call.
 */
export type StaffCaller = Pick<StaffActor, 'staffId' | 'tenantId' | 'position' | 'reach' | 'departmentId' | 'branchId'>;
