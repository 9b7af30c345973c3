import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { ownDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** One of the signed-in client's addresses; anyone else's (client or tenant) is a 404. */
export const getDeliveryAddress: Handler<'getDeliveryAddress'> = async (ctx, req) =>
  ({ data: await ownDeliveryAddress(ctx.scope, clientId(ctx), req.params.id) });
