import type { Handler } from '../types.js';
import { vehicleBodyTypeFromRow } from './mappers.js';

/** Vehicle body types, by name. */
export const listVehicleBodyTypes: Handler<'listVehicleBodyTypes'> = async (ctx) => {
  const rows = await ctx.db.selectFrom('vehicle_body_types').selectAll().orderBy('name').orderBy('code').execute();
  return { data: rows.map(vehicleBodyTypeFromRow) };
};
