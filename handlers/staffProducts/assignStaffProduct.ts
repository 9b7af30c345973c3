import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { assignProduct } from '../../server/domain/products/manage.js';

/** Assigns one of the company's own products to another company, so its staff and clients can sell it. */
export const assignStaffProduct: Handler<'assignStaffProduct'> = async (ctx, req) => ({
  data: await assignProduct(ctx, staffId(ctx), req.params.id, req.body.companyId),
});
