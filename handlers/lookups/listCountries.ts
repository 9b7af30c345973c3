import type { Handler } from '../../server/platform/handler-types.js';
import { countries } from '../../server/domain/reference/lists.js';
import { countryFromRow } from './mappers.js';

/** Countries by name; their state provinces only with include=stateProvinces (the lists are large). */
export const listCountries: Handler<'listCountries'> = async (ctx, req) => ({ data: (await countries(ctx.db, req.query)).map(countryFromRow) });
