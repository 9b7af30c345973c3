import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';

/** Deletes one of the signed-in client's addresses. Deleting the PRIMARY one promotes no other. */
export const deleteDeliveryAddress: Handler<'deleteDeliveryAddress'> = async (ctx, req) => {
  const deleted = await ctx.scope.deleteFrom('delivery_addresses')
    .where('id', '=', req.params.id)
    .where('client_id', '=', clientId(ctx))
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Delivery address');
  return { message: 'Delivery address deleted' };
};
