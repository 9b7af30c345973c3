import type { Handler } from '../../server/platform/handler-types.js';
import { vehicleScheduleTypes } from '../../server/domain/reference/lists.js';
import { vehicleScheduleTypeFromRow } from './mappers.js';

/** Vehicle schedule (risk) types with their usage, by name. */
export const listVehicleScheduleTypes: Handler<'listVehicleScheduleTypes'> = async (ctx) =>
  ({ data: (await vehicleScheduleTypes(ctx.db)).map(vehicleScheduleTypeFromRow) });
