import type { Handler } from '../../server/platform/handler-types.js';
import { vehicleMakes } from '../../server/domain/reference/lists.js';
import { vehicleFromRow } from './mappers.js';

/** Vehicle makes with their models, by name. */
export const listVehicles: Handler<'listVehicles'> = async (ctx, req) => ({ data: (await vehicleMakes(ctx.db, req.query)).map(vehicleFromRow) });
