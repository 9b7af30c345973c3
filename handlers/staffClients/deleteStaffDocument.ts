import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { removeDocumentForStaff } from '../../server/domain/clients/staff-documents.js';

/** Deletes a document of a client within the caller's reach, its bytes with it. */
export const deleteStaffDocument: Handler<'deleteStaffDocument'> = async (ctx, req) => {
  await removeDocumentForStaff(ctx, staffActor(ctx), req.params.id);
  return { message: 'Document deleted' };
};
