import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { deliveryAddressPage } from '../../server/domain/clients/delivery-addresses.js';

/** One page of the signed-in client's addresses: the PRIMARY one first, then newest first. */
export const listDeliveryAddresses: Handler<'listDeliveryAddresses'> = async (ctx, req) => {
  const { addresses, paginator } = await deliveryAddressPage(ctx.scope, clientId(ctx), req.query);
  return { data: addresses, paginator };
};
