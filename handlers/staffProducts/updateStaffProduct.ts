import type { Handler } from '../../server/platform/handler-types.js';
import { updateProduct } from '../../server/domain/products/manage.js';

/** Some fields of one of the company's own products. */
export const updateStaffProduct: Handler<'updateStaffProduct'> = async (ctx, req) => ({ data: await updateProduct(ctx, req.params.id, req.body) });
