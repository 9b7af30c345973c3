import type { HandlerContext } from '../../platform/context.js';
import type { DocumentRow } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';
import type { Part } from '../../platform/files.js';
import { discardStored, fileLabel, multipartError, recordDocuments, storeFile, type StoredFile } from './store.js';

/**
 * Stores each `files` part as the client's document as it arrives, then records them all in one
 * transaction. All or nothing: whatever fails (a type, a size, an aborted body, storage, the
 * insert), every object this upload stored is removed and no row is written. `uploadedByStaffId`
 * names the staff member uploading for the client (at the counter), none when the client does.
 */
export async function storeUploads(ctx: Pick<HandlerContext, 'clock' | 'config' | 'scope' | 'storage' | 'tenant'>, clientId: string, parts: AsyncIterable<Part>,
  uploadedByStaffId: string | null = null): Promise<DocumentRow[]> {
  const keys: string[] = [];
  const stored: StoredFile[] = [];
  try {
    for await (const part of parts) {
      if (part.kind !== 'file' || part.field !== 'files') {
        throw badRequest(`Unexpected ${part.kind} '${part.field}': send only file parts named files`, 'UNEXPECTED_FIELD');
      }
      const label = fileLabel(stored.length, part.filename);
      stored.push(await storeFile(ctx, { filename: part.filename, stream: part.stream }, { label, keys }));
    }
    if (stored.length === 0) throw badRequest('Send one or more files, each in a part named files', 'NO_FILES');
    return await recordDocuments(ctx, clientId, stored, uploadedByStaffId);
  } catch (error) {
    await discardStored(ctx, keys);
    throw multipartError(error, ctx.config.maxUploadFiles, ctx.config.maxUploadBytes);
  }
}
