import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { loadClaim } from '../../server/domain/claims/view.js';

/** One of the signed-in client's claims, documents included; anyone else's id is 404. */
export const getClaim: Handler<'getClaim'> = async (ctx, req) => ({ data: await loadClaim(ctx.scope, req.params.id, clientId(ctx)) });
