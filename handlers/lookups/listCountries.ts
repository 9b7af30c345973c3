import type { Handler } from '../types.js';
import { containsPattern } from '../../server/platform/filters.js';
import { countryColumns, countryFromRow } from './mappers.js';

/** Countries by name; their state provinces only with include=stateProvinces (the lists are large). */
export const listCountries: Handler<'listCountries'> = async (ctx, req) => {
  const { include, name, countryCode } = req.query;
  const rows = await ctx.db.selectFrom('countries')
    .select(countryColumns)
    .$if(include === 'stateProvinces', (qb) => qb.select('state_provinces'))
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(countryCode !== undefined, (qb) => qb.where('code', '=', countryCode!))
    .orderBy('name')
    .orderBy('code')
    .execute();
  return { data: rows.map(countryFromRow) };
};
