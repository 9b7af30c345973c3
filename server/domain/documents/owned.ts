import type { HandlerContext } from '../../platform/context.js';
import { ApiError, badRequest, notFound } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { storageOf } from './store.js';

/**
 * Documents a body refers to (`field`, e.g. `body.documentIds`): each named once, each one of the
 * client's own uploads, else 400 for a repeat and 404 naming the first that is not the client's.
 */
export async function checkOwnDocuments(scope: TenantScope, clientId: string, ids: readonly string[], field: string): Promise<void> {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id.toLowerCase())) throw badRequest(`${field}[${index}] names document ${id} a second time`);
    seen.add(id.toLowerCase());
  });
  if (ids.length === 0) return;
  const owned = new Set((await scope.selectFrom('documents').select('id').where('client_id', '=', clientId)
    .where('id', 'in', [...ids]).execute()).map((row) => row.id.toLowerCase()));
  const missing = ids.findIndex((id) => !owned.has(id.toLowerCase()));
  if (missing >= 0) throw new ApiError(404, 'NOT_FOUND', `${field}[${missing}]: document ${ids[missing]} not found`);
}

/**
 * One of the client's documents with its bytes, typed as recorded at upload (never sniffed again,
 * never the uploader's claim). Anyone else's id is a 404, like an unknown one.
 */
export async function openDocument(ctx: Pick<HandlerContext, 'scope' | 'storage'>, clientId: string, id: string) {
  const row = await ctx.scope.selectFrom('documents')
    .select(['name', 'content_type', 'size', 'sha256', 'storage_key'])
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) throw notFound('Document');
  // A row without its bytes is our fault, not the caller's: it surfaces as a logged 500.
  return { ...row, body: await storageOf(ctx).get(row.storage_key) };
}

/**
 * Deletes one of the client's documents: the row, then the bytes, inside one transaction, so if
 * removing the bytes fails the row comes back (500, and a retry can finish the job) rather than
 * leaving bytes nobody can reach.
 */
export async function removeDocument(ctx: Pick<HandlerContext, 'scope' | 'storage'>, clientId: string, id: string): Promise<void> {
  await ctx.scope.transaction(async (scope) => {
    const row = await scope.deleteFrom('documents')
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .returning('storage_key')
      .executeTakeFirst();
    if (!row) throw notFound('Document');
    await storageOf(ctx).delete(row.storage_key);
  });
}
