import type { Handler } from '../../server/platform/handler-types.js';
import { operatorCompanyPage } from '../../server/domain/companies/list.js';

/** Every company on the platform, paged, as the operator sees them. */
export const listOperatorCompanies: Handler<'listOperatorCompanies'> = async (ctx, req) => operatorCompanyPage(ctx.db, req.query);
