import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Optional, Schemas, Timestamp } from './columns.js';

/** Companies (the tenants) and their Api-Keys. */

export type CompanyType = Schemas['CompanyType'];

export type CompanyKind = Schemas['CompanyKind'];

export interface CompaniesTable {
  id: Generated<string>;
  name: string;
  identifier: string;
  email: string;
  type: CompanyType;
  kind: CompanyKind;
  short_name: string;
  description: string | null;
  primary_color: string | null;
  sms_sender_id: string | null;
  subdomain: string;
  address: string | null;
  country: string | null;
  logo_url: string | null;
  firebase_project_id: string | null;
  db_name: Optional<string>;
  /** A connection string: stored for the operator, never answered. */
  database_uri: Optional<string>;
  /** Firebase service account of the company's project (`privateKey` never answered). */
  firebase_config: ColumnType<FirebaseConfigRow | null, string | null | undefined, string | null>;
  /** The logo's bytes in document storage (`<companyId>/logo-<uuid>`), its sniffed type and size. */
  logo_storage_key: Optional<string>;
  logo_content_type: Optional<'image/jpeg' | 'image/png' | 'image/webp'>;
  logo_size: Optional<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface FirebaseConfigRow { databaseUrl?: string; clientEmail?: string; projectId: string; privateKey?: string }

export interface ApiKeysTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  mode: 'sandbox' | 'production';
  created_at: CreatedAt;
  revoked_at: Date | null;
}
