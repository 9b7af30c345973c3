import type { Handler } from '../../server/platform/handler-types.js';
import { refreshedStaff } from '../../server/domain/staff/session.js';

/** Renews a staff session: spends the refresh token, answers the profile with a new access token and refresh token. */
export const refreshStaffToken: Handler<'refreshStaffToken'> = async (ctx, req) => refreshedStaff(ctx, req.body.refreshToken, req.ip);
