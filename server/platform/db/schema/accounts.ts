import type { Generated } from 'kysely';
import type { CreatedAt, Json, Optional, Timestamp } from './columns.js';

/** What every account that signs in owns: revoked tokens, reset and verification codes, notifications. */

export interface RevokedTokensTable {
  jti: string;
  tenant_id: string;
  expires_at: Date;
  revoked_at: CreatedAt;
}

export interface PasswordResetCodesTable {
  id: Generated<string>;
  tenant_id: string;
  /** The client or (with `staff_id`) the staff member the code was sent to: exactly one. */
  client_id: string | null;
  staff_id: Optional<string>;
  code_hash: string;
  expires_at: Date;
  attempts: Generated<number>;
  consumed_at: Date | null;
  created_at: CreatedAt;
}

/** What a notification is about: a domain object by name and id (seed "Entity reference"). */
export interface EntityReference { name: string; id: string }

export interface NotificationsTable {
  tenant_id: string;
  id: Generated<string>;
  /** The client or (with `staff_id`) the staff member it is for: exactly one. */
  client_id: string | null;
  staff_id: Optional<string>;
  entity: Json<EntityReference | null>;
  title: string;
  body: string;
  status: Generated<'read' | 'unread'>;
  read_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface VerificationCodesTable {
  tenant_id: string;
  id: Generated<string>;
  /** The client or (with `staff_id`) the staff member the contact is for: exactly one. */
  client_id: string | null;
  staff_id: Optional<string>;
  /** For a staff member's contact a manager set: who asked (the change waits for the member's confirmation). */
  requested_by_staff_id: Optional<string>;
  channel: 'email' | 'phone';
  /** The email or phone number the code was sent to: verifying proves that one. */
  target: string;
  code_hash: string;
  expires_at: Date;
  attempts: Generated<number>;
  consumed_at: Date | null;
  created_at: CreatedAt;
}
