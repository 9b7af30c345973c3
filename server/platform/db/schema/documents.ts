import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns.js';

/** Uploaded documents. */

/** A client's uploaded document: the bytes are in object storage under `storage_key`. */
export interface DocumentsTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  /** The sanitised original filename. */
  name: string;
  /** Detected from the bytes at upload, never taken from the client. */
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic';
  /** `bigint`: a decimal string out of both drivers. */
  size: ColumnType<string, string | number, string | number>;
  sha256: string;
  storage_key: string;
  /** The staff member who uploaded it for the client; null when the client did. */
  uploaded_by_staff_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
