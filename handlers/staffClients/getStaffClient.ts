import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { staffClient } from '../../server/domain/clients/staff-clients.js';

/** A client within the caller's reach. */
export const getStaffClient: Handler<'getStaffClient'> = async (ctx, req) => ({ data: await staffClient(ctx, staffActor(ctx), req.params.id) });
