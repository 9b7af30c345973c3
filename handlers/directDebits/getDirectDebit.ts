import { clientId } from '../auth/session.js';
import type { Handler } from '../types.js';
import { loadDirectDebit } from './view.js';

/** One of the signed-in client's mandates with its history; anyone else's id is 404. */
export const getDirectDebit: Handler<'getDirectDebit'> = async (ctx, req) =>
  ({ data: await loadDirectDebit(ctx.scope, req.params.id, clientId(ctx)) });
