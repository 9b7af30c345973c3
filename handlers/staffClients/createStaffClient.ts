import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { createClientByStaff } from '../../server/domain/clients/staff-clients.js';

/** Opens a client account for a client, created by the caller and credited to them or to whom they name. */
export const createStaffClient: Handler<'createStaffClient'> = async (ctx, req) => ({ data: await createClientByStaff(ctx, staffActor(ctx), req.body) });
