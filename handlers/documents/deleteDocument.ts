import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { storageOf } from '../../server/domain/documents/store.js';

/**
 * Deletes the row, then the bytes, inside one transaction: if removing the bytes fails the row
 * comes back (500, and a retry can finish the job) rather than leaving bytes nobody can reach.
 */
export const deleteDocument: Handler<'deleteDocument'> = async (ctx, req) => {
  const owner = clientId(ctx);
  await ctx.scope.transaction(async (scope) => {
    const row = await scope.deleteFrom('documents')
      .where('id', '=', req.params.id)
      .where('client_id', '=', owner)
      .returning('storage_key')
      .executeTakeFirst();
    if (!row) throw notFound('Document');
    await storageOf(ctx).delete(row.storage_key);
  });
  return { message: 'Document deleted' };
};
