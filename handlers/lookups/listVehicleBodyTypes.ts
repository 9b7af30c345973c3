import type { Handler } from '../../server/platform/handler-types.js';
import { vehicleBodyTypes } from '../../server/domain/reference/lists.js';
import { vehicleBodyTypeFromRow } from './mappers.js';

/** Vehicle body types, by name. */
export const listVehicleBodyTypes: Handler<'listVehicleBodyTypes'> = async (ctx) => ({ data: (await vehicleBodyTypes(ctx.db)).map(vehicleBodyTypeFromRow) });
