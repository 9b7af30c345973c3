import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { openDocumentForStaff } from '../../server/domain/clients/staff-documents.js';

/** Streams a document of a client within the caller's reach, as the client's own download does. */
export const downloadStaffDocument: Handler<'downloadStaffDocument'> = async (ctx, req) => {
  const document = await openDocumentForStaff(ctx, staffActor(ctx), req.params.id);
  return {
    kind: 'file',
    body: document.body,
    contentType: document.content_type,
    filename: document.name,
    disposition: 'attachment',
    size: Number(document.size),
    headers: { 'x-content-sha256': document.sha256, 'cache-control': 'private, no-store' },
  };
};
