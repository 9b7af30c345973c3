import { staffActor } from '../../server/platform/actor.js';
import { requestClosureForClient } from '../../server/domain/policies/closure-requests.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Asks, for a client within the caller's reach, to close one of its policies, as the client's own request. */
export const requestPolicyClosureForClient: Handler<'requestPolicyClosureForClient'> = async (ctx, req) =>
  ({ data: await requestClosureForClient(ctx, staffActor(ctx), req.params.id, req.body) });
