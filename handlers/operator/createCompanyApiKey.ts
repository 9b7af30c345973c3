import type { Handler } from '../../server/platform/handler-types.js';
import { createCompanyApiKey as create } from '../../server/domain/companies/api-keys.js';

/** A new Api-Key for the company, in clear this once. */
export const createCompanyApiKey: Handler<'createCompanyApiKey'> = async (ctx, req) => ({
  data: await create(ctx, req.params.companyId, req.body?.name),
});
