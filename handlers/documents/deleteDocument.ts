import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { removeDocument } from '../../server/domain/documents/owned.js';

/** Deletes one of the signed-in client's documents, its bytes with it. */
export const deleteDocument: Handler<'deleteDocument'> = async (ctx, req) => {
  await removeDocument(ctx, clientId(ctx), req.params.id);
  return { message: 'Document deleted' };
};
