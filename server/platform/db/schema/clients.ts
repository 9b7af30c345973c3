import type { Generated } from 'kysely';
import type { CreatedAt, Json, Optional, PlainDate, Schemas, Timestamp } from './columns.js';

/** Client accounts and their delivery addresses. */

export interface ContactPersonRow { phoneNumber: string; email: string; position: string; name: string }

export interface IdentificationCardRow { idNumber: string; type: string; issueDate: string; expiryDate?: string | null }

export interface ClientsTable {
  tenant_id: string;
  id: Generated<string>;
  type: 'INDIVIDUAL' | 'CORPORATE';
  email: string | null;
  phone_number: string | null;
  password_hash: string | null;
  firebase_uid: string | null;
  first_name: string | null;
  last_name: string | null;
  other_names: string | null;
  title: string | null;
  gender: Schemas['Gender'] | null;
  date_of_birth: PlainDate | null;
  identification_card: Json<IdentificationCardRow | null>;
  company_name: string | null;
  date_of_incorporation: PlainDate | null;
  contact_persons: Json<ContactPersonRow[]>;
  country: string;
  city: string | null;
  region: string | null;
  digital_address: string | null;
  address: string | null;
  industry: string | null;
  notes: string | null;
  groups: Json<string[]>;
  profile_image: string | null;
  taxpayer_identification_number: string | null;
  is_active: Generated<boolean>;
  /** Bumped when the password changes: tokens carrying an older version stop working. */
  session_version: Generated<number>;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  deleted_at: Date | null;
  created_by_staff_id: string | null;
  originating_staff_id: string | null;
  /** The staff member who last chose a way into the account (opened it, or set its password, e-mail or phone); never approves its payments. */
  credentials_set_by_staff_id: Generated<string | null>;
  /** Set together while a staff member has the client deactivated; cleared when it is activated. */
  deactivated_at: Optional<Date>;
  deactivated_by_staff_id: Optional<string>;
  deactivation_reason: Optional<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DeliveryAddressesTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  type: Schemas['DeliveryAddressType'];
  name: string;
  region: string;
  city: string;
  phone_number: string;
  address: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
