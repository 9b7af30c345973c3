import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { StaffRow } from '../../platform/db/schema.js';
import { checkPassword, countSignInFromAddress, invalidCredentials } from '../accounts/sign-in.js';
import { findStaffByUsername } from './account.js';

/**
 * The active staff member a login proves, by username and password, under the same limits as a
 * client's: the caller's address (shared with client logins) and the account (a bucket of its
 * own). A deactivated staff member gets the answer a wrong password gets: the contract says so.
 */
export async function authenticateStaff(ctx: HandlerContext, body: components['schemas']['StaffLogin'], ip: string): Promise<StaffRow> {
  const now = ctx.clock.now();
  await countSignInFromAddress(ctx, ip, now);
  return checkPassword(ctx, {
    bucket: `staff-login:account:${ctx.tenant.id}`,
    username: body.username,
    password: body.password,
    find: () => findStaffByUsername(ctx.scope, body.username),
    admit: (member) => { if (!member.is_active) throw invalidCredentials(); },
  }, now);
}
