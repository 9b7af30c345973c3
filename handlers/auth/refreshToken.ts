import type { Handler } from '../../server/platform/handler-types.js';
import { refreshedClient } from '../../server/domain/clients/session.js';

/** Renews a client's session: spends the refresh token, answers the account with a new access token and refresh token. */
export const refreshToken: Handler<'refreshToken'> = async (ctx, req) => refreshedClient(ctx, req.body.refreshToken, req.ip);
