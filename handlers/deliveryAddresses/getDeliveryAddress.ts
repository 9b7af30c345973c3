import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { deliveryAddressColumns, toDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** One of the signed-in client's addresses; anyone else's (client or tenant) is a 404. */
export const getDeliveryAddress: Handler<'getDeliveryAddress'> = async (ctx, req) => {
  const row = await ctx.scope.selectFrom('delivery_addresses')
    .select(deliveryAddressColumns)
    .where('id', '=', req.params.id)
    .where('client_id', '=', clientId(ctx))
    .executeTakeFirst();
  if (!row) throw notFound('Delivery address');
  return { data: toDeliveryAddress(row) };
};
