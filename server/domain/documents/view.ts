import type { components } from '../../../generated/api.js';
import type { DocumentRow } from '../../platform/db/schema.js';

export type Document = components['schemas']['Document'];

/** Where a document's bytes are downloaded: the `url` every Document carries. */
export const documentUrl = (id: string) => `/api/v1/client/documents/${id}`;

/** Row -> Document (the seed's File entity; the storage key and owner stay internal). */
export function toDocument(row: DocumentRow): Document {
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
