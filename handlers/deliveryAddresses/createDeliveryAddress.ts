import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { deliveryAddressColumns, demotePrimary, guardPrimary, lockClientAddresses, toDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** Adds an address for the signed-in client; a PRIMARY one demotes the current PRIMARY in the same transaction. */
export const createDeliveryAddress: Handler<'createDeliveryAddress'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  // Request validation fills in the contract's default; `??` only guards a caller that bypasses it.
  const type = body.type ?? 'PRIMARY';
  const now = ctx.clock.now();
  const row = await guardPrimary(() => ctx.scope.transaction(async (scope) => {
    await lockClientAddresses(scope, owner);
    if (type === 'PRIMARY') await demotePrimary(scope, owner, now);
    return scope.insertInto('delivery_addresses', {
      client_id: owner,
      type,
      name: body.name,
      region: body.region,
      city: body.city,
      phone_number: body.phoneNumber,
      address: body.address,
      created_at: now,
      updated_at: now,
    }).returning(deliveryAddressColumns).executeTakeFirstOrThrow();
  }));
  return { data: toDeliveryAddress(row) };
};
