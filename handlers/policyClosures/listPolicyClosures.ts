import { clientId } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { listClosures } from '../../server/domain/policies/closures.js';

/** One page of the signed-in client's closure requests, newest first, filtered as asked. */
export const listPolicyClosures: Handler<'listPolicyClosures'> = async (ctx, req) => listClosures(ctx.scope, clientId(ctx), pageOrCursor(req.query, req.sentQuery));
