import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { deactivateClient } from '../../server/domain/clients/staff-clients.js';

/** Deactivates a client, recording who, when and why. */
export const deactivateStaffClient: Handler<'deactivateStaffClient'> = async (ctx, req) =>
  ({ data: await deactivateClient(ctx, staffActor(ctx), req.params.id, req.body.reason) });
