import { ApiError } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { toDocument } from '../../server/domain/documents/view.js';
import { storeUploads } from '../../server/domain/documents/upload.js';

/** Stores the files of a multipart body as the signed-in client's documents, all or nothing. */
export const uploadDocuments: Handler<'uploadDocuments'> = async (ctx, req) => {
  if (!req.parts) {
    // Not multipart (JSON, a form, no body): the contract takes file parts only.
    const type = req.headers['content-type'] ?? '(none)';
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not accepted here: send multipart/form-data with file parts named files`);
  }
  const rows = await storeUploads(ctx, clientId(ctx), req.parts);
  return { data: rows.map((row) => toDocument(row)) };
};
