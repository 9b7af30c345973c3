import type { Handler } from '../../server/platform/handler-types.js';
import { staffProductPage } from '../../server/domain/products/list.js';

/** The company's products as its staff see them (own and assigned, any status, both channels), a page at a time. */
export const listStaffProducts: Handler<'listStaffProducts'> = async (ctx, req) => {
  const { products, paginator } = await staffProductPage(ctx, req.query);
  return { data: products, paginator };
};
