import type { Handler } from '../../server/platform/handler-types.js';
import { staffId } from '../../server/platform/actor.js';
import { setProductStatus } from '../../server/domain/products/manage.js';

/** Puts one of the company's own products on sale again, recording who and when. */
export const activateStaffProduct: Handler<'activateStaffProduct'> = async (ctx, req) => ({
  data: await setProductStatus(ctx, staffId(ctx), req.params.id, 'ACTIVE'),
});
