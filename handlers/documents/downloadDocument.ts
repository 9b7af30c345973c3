import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { openDocument } from '../../server/domain/documents/owned.js';

/** Streams one of the signed-in client's documents, as an attachment never cached. */
export const downloadDocument: Handler<'downloadDocument'> = async (ctx, req) => {
  const document = await openDocument(ctx, clientId(ctx), req.params.id);
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
