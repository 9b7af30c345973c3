import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { createProduct } from '../../server/domain/products/manage.js';

/** A new product of the caller's company (an insurer), created by the caller. */
export const createStaffProduct: Handler<'createStaffProduct'> = async (ctx, req) => ({ data: await createProduct(ctx, staffId(ctx), req.body) });
