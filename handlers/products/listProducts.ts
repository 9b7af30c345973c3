import type { Handler } from '../../server/platform/handler-types.js';
import { productPage } from '../../server/domain/products/list.js';

/** The products a client can buy, by name, a page at a time, with the seed's filters. */
export const listProducts: Handler<'listProducts'> = async (ctx, req) => {
  const { products, paginator } = await productPage(ctx, req.query);
  return { data: products, paginator };
};
