import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { listCart } from '../../server/domain/cart/list.js';

/** One page of the signed-in client's cart, newest first, each item with whether it would pass checkout now, and the cart's totals. */
export const listCartItems: Handler<'listCartItems'> = async (ctx, req) =>
  // The contract gives page and limit defaults, which request validation fills in.
  listCart(ctx, clientId(ctx), { page: req.query.page!, limit: req.query.limit! });
