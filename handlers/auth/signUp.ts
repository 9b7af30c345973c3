import type { Handler } from '../../server/platform/handler-types.js';
import { signUpClient } from '../../server/domain/clients/create.js';
import { signedIn } from '../../server/domain/clients/session.js';

/** Creates an individual or corporate client and signs it in. */
export const signUp: Handler<'signUp'> = async (ctx, req) => signedIn(ctx, await signUpClient(ctx, req.body, req.ip));
