import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import type { Part } from '../../platform/files.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { openDocument, removeDocument } from '../documents/owned.js';
import { storeUploads } from '../documents/upload.js';
import { staffDocumentUrl, toDocument, type Document } from '../documents/view.js';
import { clientInReach } from '../staff/reach.js';
import { reachableClient } from './staff-clients.js';

/**
 * A client's documents as staff handle them at the counter, through the very functions the
 * client's own calls use (`documents/`): a client, and a document through its client, within the
 * caller's reach, else 404 as an unknown id. What staff upload is the client's, with the caller
 * recorded as its uploader.
 */

/** Stores the files of a multipart body as documents of a client within reach, uploaded by the caller, all or nothing. */
export async function uploadForClient(ctx: HandlerContext, actor: StaffActor, clientId: string, parts: AsyncIterable<Part>): Promise<Document[]> {
  await reachableClient(ctx.scope, actor, clientId);
  const rows = await storeUploads(ctx, clientId, parts, actor.staffId);
  return rows.map((row) => toDocument(row, staffDocumentUrl));
}

/** Every document of a client within reach, newest first (the newest 500). */
export async function documentsOfClient(scope: TenantScope, actor: StaffActor, clientId: string): Promise<Document[]> {
  await reachableClient(scope, actor, clientId);
  const rows = await scope.selectFrom('documents').selectAll().where('client_id', '=', clientId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
  return rows.map((row) => toDocument(row, staffDocumentUrl));
}

/** The client whose document this is, when within the caller's reach; 404 otherwise. */
async function documentClientInReach(scope: TenantScope, actor: StaffActor, id: string): Promise<string> {
  const row = await scope.selectFrom('documents').select('documents.client_id').where('documents.id', '=', id)
    .where(clientInReach('documents.client_id', actor)).executeTakeFirst();
  if (!row) throw notFound('Document');
  return row.client_id;
}

/** A document of a client within reach with its bytes, as the client's own download opens it. */
export async function openDocumentForStaff(ctx: Pick<HandlerContext, 'scope' | 'storage'>, actor: StaffActor, id: string) {
  return openDocument(ctx, await documentClientInReach(ctx.scope, actor, id), id);
}

/** Deletes a document of a client within reach, row and bytes, as the client's own deletion does. */
export async function removeDocumentForStaff(ctx: Pick<HandlerContext, 'scope' | 'storage'>, actor: StaffActor, id: string): Promise<void> {
  await removeDocument(ctx, await documentClientInReach(ctx.scope, actor, id), id);
}
