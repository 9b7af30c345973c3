import type { operations } from '../../../generated/api.js';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/filters.js';
import { pageOf } from '../../platform/pagination.js';
import { companyById } from './rules.js';
import { toOperatorCompany } from './view.js';

type Query = NonNullable<operations['listOperatorCompanies']['parameters']['query']>;

/** One page of every company on the platform, as the operator sees them, by name. */
export async function operatorCompanyPage(db: Db, query: Query) {
  const { name, type } = query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const filtered = db.selectFrom('companies')
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(type !== undefined, (qb) => qb.where('type', '=', type!));
  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered.selectAll().orderBy('name').orderBy('id').limit(limit).offset(offset).execute();
  return { data: rows.map(toOperatorCompany), paginator };
}

/** One company as the operator sees it, or 404. */
export async function operatorCompany(db: Db, companyId: string) {
  return toOperatorCompany(await companyById(db, companyId));
}
