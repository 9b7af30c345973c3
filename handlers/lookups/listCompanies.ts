import { pageOf } from '../../server/platform/pagination.js';
import type { Handler } from '../types.js';
import { containsPattern } from '../../server/platform/filters.js';
import { companyColumns, companyFromRow } from './mappers.js';

/** One page of the platform-wide company directory (companies are not tenant-owned rows), by name. */
export const listCompanies: Handler<'listCompanies'> = async (ctx, req) => {
  const { name, type, email } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const filtered = ctx.db.selectFrom('companies')
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(type !== undefined, (qb) => qb.where('type', '=', type!))
    .$if(email !== undefined, (qb) => qb.where((eb) => eb(eb.fn('lower', ['email']), '=', email!.toLowerCase())));

  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered
    .select(companyColumns)
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { data: rows.map(companyFromRow), paginator };
};
