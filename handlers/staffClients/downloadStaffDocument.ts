import { staffActor } from '../../server/platform/actor.js';
import { storedFileDownload } from '../../server/platform/files.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { openDocumentForStaff } from '../../server/domain/clients/staff-documents.js';

/** Streams a document of a client within the caller's reach, as the client's own download does. */
export const downloadStaffDocument: Handler<'downloadStaffDocument'> = async (ctx, req) => {
  const document = await openDocumentForStaff(ctx, staffActor(ctx), req.params.id);
  return storedFileDownload(document);
};
