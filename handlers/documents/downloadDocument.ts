import { clientId } from '../../server/platform/actor.js';
import { storedFileDownload } from '../../server/platform/files.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { openDocument } from '../../server/domain/documents/owned.js';

/** Streams one of the signed-in client's documents, as an attachment never cached. */
export const downloadDocument: Handler<'downloadDocument'> = async (ctx, req) => {
  const document = await openDocument(ctx, clientId(ctx), req.params.id);
  return storedFileDownload(document);
};
