import type { Handler } from '../../server/platform/handler-types.js';
import { visibleProduct } from '../../server/domain/products/list.js';

/** One product the client may buy; any other is not found. */
export const getProduct: Handler<'getProduct'> = async (ctx, req) => ({ data: await visibleProduct(ctx, req.params.id) });
