import { ApiError, badRequest } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';

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
