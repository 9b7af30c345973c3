import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { addToCart } from '../../server/domain/cart/changes.js';

/** Puts a policy create body of any type in the signed-in client's cart (its assets are checked at checkout). */
export const addCartItem: Handler<'addCartItem'> = async (ctx, req) => ({ data: await addToCart(ctx, clientId(ctx), req.body) });
