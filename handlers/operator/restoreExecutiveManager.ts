import type { Handler } from '../../server/platform/handler-types.js';
import { restoreExecutiveManager as restore } from '../../server/domain/companies/executive-managers.js';

/** Makes one of the company's staff members its active executive manager again, with the reason. */
export const restoreExecutiveManager: Handler<'restoreExecutiveManager'> = async (ctx, req) => ({
  data: await restore(ctx, req.params.companyId, req.body),
});
