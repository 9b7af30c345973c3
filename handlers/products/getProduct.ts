import { notFound } from '../../server/platform/errors.js';
import type { Handler } from '../types.js';
import { productColumns, toProduct, visibleProducts } from '../../server/domain/products/visible.js';

/** One product the client may buy; any other is not found. */
export const getProduct: Handler<'getProduct'> = async (ctx, req) => {
  const row = await visibleProducts(ctx).select(productColumns).where('products.id', '=', req.params.id).executeTakeFirst();
  if (!row) throw notFound('Product');
  return { data: toProduct(row) };
};
