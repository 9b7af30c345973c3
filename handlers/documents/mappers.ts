import type { components } from '../../generated/api.js';
import type { DocumentRow } from '../../server/db/schema.js';

export type File = components['schemas']['File'];

/** Where a document's bytes are downloaded: the `url` every File carries. */
export const documentUrl = (id: string) => `/api/v1/client/documents/${id}`;

/** Row -> File (the storage key and owner stay internal). */
export function toFile(row: DocumentRow): File {
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    contentType: row.content_type,
    url: documentUrl(row.id),
    // bigint arrives as a decimal string; documents are far below 2^53 bytes.
    size: Number(row.size),
    name: row.name,
    sha256: row.sha256,
  };
}
