import type { components } from '../../../generated/api.js';
import type { DocumentRow } from '../../platform/db/schema.js';

export type Document = components['schemas']['Document'];

/** Where a document's bytes are downloaded: the `url` every Document carries (the client's call). */
export const documentUrl = (id: string) => `/api/v1/client/documents/${id}`;
/** Where staff download a document of a client within their reach. */
export const staffDocumentUrl = (id: string) => `/api/v1/staff/documents/${id}`;

/** Row -> Document (the seed's File entity; the storage key and owner stay internal), downloaded from `urlOf`. */
export function toDocument(row: DocumentRow, urlOf: (id: string) => string = documentUrl): Document {
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    contentType: row.content_type,
    url: urlOf(row.id),
    // bigint arrives as a decimal string; documents are far below 2^53 bytes.
    size: Number(row.size),
    name: row.name,
    sha256: row.sha256,
    uploadedBy: row.uploaded_by_staff_id === null ? null : { name: 'staff', id: row.uploaded_by_staff_id },
  };
}
