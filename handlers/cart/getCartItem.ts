import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { loadCartItem } from '../../server/domain/cart/items.js';

/** One of the signed-in client's cart items, with whether it would pass checkout now; anyone else's is a 404. */
export const getCartItem: Handler<'getCartItem'> = async (ctx, req) => ({ data: await loadCartItem(ctx, clientId(ctx), req.params.id) });
