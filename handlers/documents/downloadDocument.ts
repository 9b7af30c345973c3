import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { storageOf } from '../../server/domain/documents/store.js';

/**
 * Streams a document's bytes with the type recorded at upload (never sniffed again, never the
 * uploader's claim). Only the owner sees it: anyone else's id is a 404, like an unknown one.
 */
export const downloadDocument: Handler<'downloadDocument'> = async (ctx, req) => {
  const row = await ctx.scope.selectFrom('documents')
    .select(['name', 'content_type', 'size', 'sha256', 'storage_key'])
    .where('id', '=', req.params.id)
    .where('client_id', '=', clientId(ctx))
    .executeTakeFirst();
  if (!row) throw notFound('Document');
  // A row without its bytes is our fault, not the caller's: it surfaces as a logged 500.
  const body = await storageOf(ctx).get(row.storage_key);
  return {
    kind: 'file',
    body,
    contentType: row.content_type,
    filename: row.name,
    disposition: 'attachment',
    size: Number(row.size),
    headers: { 'x-content-sha256': row.sha256, 'cache-control': 'private, no-store' },
  };
};
