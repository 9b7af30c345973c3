import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { setProductStatus } from '../../server/domain/products/manage.js';

/** Takes one of the company's own products off sale, recording who and when. */
export const deactivateStaffProduct: Handler<'deactivateStaffProduct'> = async (ctx, req) => ({
  data: await setProductStatus(ctx, staffId(ctx), req.params.id, 'DEACTIVATED'),
});
