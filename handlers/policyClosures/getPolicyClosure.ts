import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { ownClosure, toPolicyClosure } from '../../server/domain/policies/closures.js';

/** One of the signed-in client's closure requests; anyone else's id is 404. */
export const getPolicyClosure: Handler<'getPolicyClosure'> = async (ctx, req) =>
  ({ data: toPolicyClosure(await ownClosure(ctx.scope, req.params.id, clientId(ctx))) });
