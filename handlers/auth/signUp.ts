import type { Handler } from '../types.js';
import { createClient } from '../../server/domain/clients/create.js';
import { signedIn } from '../../server/domain/clients/session.js';

/** Creates an individual or corporate client and signs it in. */
export const signUp: Handler<'signUp'> = async (ctx, req) =>
  signedIn(ctx, await createClient(ctx, req.body, { createdBy: { by: 'client', id: null } }));
