import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { changeCartItem } from '../../server/domain/cart/changes.js';

/** Changes some fields of one of the signed-in client's cart items (`null` removes one); the item is checked again. */
export const updateCartItem: Handler<'updateCartItem'> = async (ctx, req) =>
  ({ data: await changeCartItem(ctx, clientId(ctx), req.params.id, req.body) });
