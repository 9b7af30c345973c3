import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { unassignProduct } from '../../server/domain/products/manage.js';

/** Withdraws one of the company's own products from a company it was assigned to. */
export const unassignStaffProduct: Handler<'unassignStaffProduct'> = async (ctx, req) => ({
  data: await unassignProduct(ctx, staffId(ctx), req.params.id, req.params.companyId),
});
