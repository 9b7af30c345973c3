import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { activateClient } from '../../server/domain/clients/staff-clients.js';

/** Makes a deactivated client active again. */
export const activateStaffClient: Handler<'activateStaffClient'> = async (ctx, req) => ({ data: await activateClient(ctx, staffActor(ctx), req.params.id) });
