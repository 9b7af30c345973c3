import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { staffActor } from '../../server/platform/actor.js';
import { staffClientPage } from '../../server/domain/clients/staff-clients.js';

/** One page of the clients within the caller's reach, filtered. */
export const listStaffClients: Handler<'listStaffClients'> = async (ctx, req) => staffClientPage(ctx, staffActor(ctx), pageOrCursor(req.query, req.sentQuery));
