import type { Handler } from '../../server/platform/handler-types.js';
import { authenticateClient } from '../../server/domain/clients/sign-in.js';
import { signedIn } from '../../server/domain/clients/session.js';

/** Signs a client in by username and password, or by Firebase ID token. */
export const login: Handler<'login'> = async (ctx, req) => signedIn(ctx, await authenticateClient(ctx, req.body, req.ip));
