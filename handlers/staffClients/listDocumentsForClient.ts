import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { documentsOfClient } from '../../server/domain/clients/staff-documents.js';

/** Every document of a client within the caller's reach, newest first. */
export const listDocumentsForClient: Handler<'listDocumentsForClient'> = async (ctx, req) =>
  ({ data: await documentsOfClient(ctx.scope, staffActor(ctx), req.params.id) });
