import type { Handler } from '../types.js';
import { vehicleScheduleTypeFromRow } from './mappers.js';

/** Vehicle schedule (risk) types with their usage, by name. */
export const listVehicleScheduleTypes: Handler<'listVehicleScheduleTypes'> = async (ctx) => {
  const rows = await ctx.db.selectFrom('vehicle_schedule_types').selectAll().orderBy('name').orderBy('code').execute();
  return { data: rows.map(vehicleScheduleTypeFromRow) };
};
