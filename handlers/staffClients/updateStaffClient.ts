import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { updateClientByStaff } from '../../server/domain/clients/staff-clients.js';

/** Changes a client's profile fields and, for managers, who it is credited to. */
export const updateStaffClient: Handler<'updateStaffClient'> = async (ctx, req) =>
  ({ data: await updateClientByStaff(ctx, staffActor(ctx), req.params.id, req.body) });
