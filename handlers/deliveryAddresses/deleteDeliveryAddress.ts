import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { removeDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** Deletes one of the signed-in client's addresses. Deleting the PRIMARY one promotes no other. */
export const deleteDeliveryAddress: Handler<'deleteDeliveryAddress'> = async (ctx, req) => {
  await removeDeliveryAddress(ctx.scope, clientId(ctx), req.params.id);
  return { message: 'Delivery address deleted' };
};
