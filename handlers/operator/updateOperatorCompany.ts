import type { Handler } from '../../server/platform/handler-types.js';
import { updateCompany } from '../../server/domain/companies/update.js';

/** Changes the fields of a company the operator sends. */
export const updateOperatorCompany: Handler<'updateOperatorCompany'> = async (ctx, req) => ({ data: await updateCompany(ctx, req.params.companyId, req.body) });
