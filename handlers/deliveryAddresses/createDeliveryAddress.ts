import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { addDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** Adds an address for the signed-in client; a PRIMARY one demotes the current PRIMARY. */
export const createDeliveryAddress: Handler<'createDeliveryAddress'> = async (ctx, req) =>
  ({ data: await addDeliveryAddress(ctx, clientId(ctx), req.body) });
