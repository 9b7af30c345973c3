import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { loadPolicy } from '../../server/domain/policies/view.js';

/** One of the signed-in client's policies, with its assets. */
export const getPolicy: Handler<'getPolicy'> = async (ctx, req) => ({ data: await loadPolicy(ctx.scope, req.params.id, clientId(ctx)) });
