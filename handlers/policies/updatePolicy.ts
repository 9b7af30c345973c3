import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { changePolicy } from '../../server/domain/policies/update.js';

/** Changes one of the signed-in client's policies as its state allows (cover changes are priced again). */
export const updatePolicy: Handler<'updatePolicy'> = async (ctx, req) => {
  const owner = clientId(ctx);
  return { data: await changePolicy(ctx, owner, req.params.id, req.body, { by: 'client', id: owner }) };
};
