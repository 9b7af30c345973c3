import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { deliveryAddressColumns, demotePrimary, guardPrimary, lockClientAddresses, toDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/**
 * Changes the given fields of one of the signed-in client's addresses. Making it PRIMARY demotes
 * the current PRIMARY in the same transaction, under the per-client lock, so concurrent requests
 * leave exactly one PRIMARY.
 */
export const updateDeliveryAddress: Handler<'updateDeliveryAddress'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const { id } = req.params;
  const body = req.body;
  const now = ctx.clock.now();
  const row = await guardPrimary(() => ctx.scope.transaction(async (scope) => {
    await lockClientAddresses(scope, owner);
    const current = await scope.selectFrom('delivery_addresses').select('type')
      .where('id', '=', id).where('client_id', '=', owner).executeTakeFirst();
    if (!current) throw notFound('Delivery address');
    if (body.type === 'PRIMARY' && current.type !== 'PRIMARY') await demotePrimary(scope, owner, now, id);
    return scope.updateTable('delivery_addresses')
      .set({
        ...(body.type !== undefined && { type: body.type }),
        ...(body.name !== undefined && { name: body.name }),
        ...(body.region !== undefined && { region: body.region }),
        ...(body.city !== undefined && { city: body.city }),
        ...(body.phoneNumber !== undefined && { phone_number: body.phoneNumber }),
        ...(body.address !== undefined && { address: body.address }),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('client_id', '=', owner)
      .returning(deliveryAddressColumns)
      .executeTakeFirstOrThrow();
  }));
  return { data: toDeliveryAddress(row) };
};
