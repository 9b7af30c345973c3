import type { Handler } from '../../server/platform/handler-types.js';
import { operatorCompany } from '../../server/domain/companies/list.js';

/** One company as the operator sees it. */
export const getOperatorCompany: Handler<'getOperatorCompany'> = async (ctx, req) => ({ data: await operatorCompany(ctx.db, req.params.companyId) });
