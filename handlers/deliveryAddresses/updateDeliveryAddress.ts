import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { changeDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** Changes the given fields of one of the signed-in client's addresses; making it PRIMARY demotes the current PRIMARY. */
export const updateDeliveryAddress: Handler<'updateDeliveryAddress'> = async (ctx, req) =>
  ({ data: await changeDeliveryAddress(ctx, clientId(ctx), req.params.id, req.body) });
