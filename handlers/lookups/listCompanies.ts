import type { Handler } from '../../server/platform/handler-types.js';
import { companyPage } from '../../server/domain/reference/lists.js';
import { companyFromRow } from './mappers.js';

/** One page of the platform-wide company directory (companies are not tenant-owned rows), by name. */
export const listCompanies: Handler<'listCompanies'> = async (ctx, req) => {
  const { rows, paginator } = await companyPage(ctx.db, req.query);
  return { data: rows.map(companyFromRow), paginator };
};
