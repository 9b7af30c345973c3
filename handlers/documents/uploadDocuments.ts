import { ApiError, badRequest } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { toDocument } from '../../server/domain/documents/view.js';
import { discardStored, fileLabel, multipartError, recordDocuments, storeFile, type StoredFile } from '../../server/domain/documents/store.js';

/**
 * Streams each `files` part to storage as it arrives, then records them all in one transaction.
 * All or nothing: whatever fails (a type, a size, an aborted body, storage, the insert), every
 * object this request stored is removed and no row is written.
 */
export const uploadDocuments: Handler<'uploadDocuments'> = async (ctx, req) => {
  if (!req.parts) {
    // Not multipart (JSON, a form, no body): the contract takes file parts only.
    const type = req.headers['content-type'] ?? '(none)';
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not accepted here: send multipart/form-data with file parts named files`);
  }
  const owner = clientId(ctx);
  const keys: string[] = [];
  const stored: StoredFile[] = [];
  try {
    for await (const part of req.parts) {
      if (part.kind !== 'file' || part.field !== 'files') {
        throw badRequest(`Unexpected ${part.kind} '${part.field}': send only file parts named files`, 'UNEXPECTED_FIELD');
      }
      const label = fileLabel(stored.length, part.filename);
      stored.push(await storeFile(ctx, { filename: part.filename, stream: part.stream }, { label, keys }));
    }
    if (stored.length === 0) throw badRequest('Send one or more files, each in a part named files', 'NO_FILES');
    const rows = await recordDocuments(ctx, owner, stored);
    return { data: rows.map(toDocument) };
  } catch (error) {
    await discardStored(ctx, keys);
    throw multipartError(error, ctx.config.maxUploadFiles, ctx.config.maxUploadBytes);
  }
};
