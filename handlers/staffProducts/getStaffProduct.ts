import type { Handler } from '../../server/platform/handler-types.js';
import { staffProduct } from '../../server/domain/products/manage.js';

/** One of the company's products, own or assigned; any other is not found. */
export const getStaffProduct: Handler<'getStaffProduct'> = async (ctx, req) => ({ data: await staffProduct(ctx, req.params.id) });
