import { ApiError } from '../../server/platform/errors.js';
import { staffActor } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { uploadForClient } from '../../server/domain/clients/staff-documents.js';

/** Stores the files of a multipart body as documents of a client within the caller's reach, all or nothing. */
export const uploadDocumentsForClient: Handler<'uploadDocumentsForClient'> = async (ctx, req) => {
  if (!req.parts) {
    const type = req.headers['content-type'] ?? '(none)';
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not accepted here: send multipart/form-data with file parts named files`);
  }
  return { data: await uploadForClient(ctx, staffActor(ctx), req.params.id, req.parts) };
};
