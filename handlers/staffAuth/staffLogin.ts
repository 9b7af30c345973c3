import type { Handler } from '../../server/platform/handler-types.js';
import { authenticateStaff } from '../../server/domain/staff/sign-in.js';
import { staffSignedIn } from '../../server/domain/staff/session.js';

/** Signs a staff member in by username and password: their profile and a staff access token. */
export const staffLogin: Handler<'staffLogin'> = async (ctx, req) => staffSignedIn(ctx, await authenticateStaff(ctx, req.body, req.ip));
