import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { renewForClient } from '../../server/domain/policies/staff-sales.js';

/** Renews a policy of a client within the caller's reach, credited to the caller. */
export const renewStaffPolicy: Handler<'renewStaffPolicy'> = async (ctx, req) =>
  ({ data: await renewForClient(ctx, staffActor(ctx), req.params.id, req.body ?? {}) });
