import type { Handler } from '../types.js';
import { containsPattern } from '../../server/platform/filters.js';
import { vehicleFromRow } from './mappers.js';

/** Vehicle makes with their models, by name. */
export const listVehicles: Handler<'listVehicles'> = async (ctx, req) => {
  const { name } = req.query;
  const rows = await ctx.db.selectFrom('vehicle_makes')
    .selectAll()
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .orderBy('name')
    .execute();
  return { data: rows.map(vehicleFromRow) };
};
