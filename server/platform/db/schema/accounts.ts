import type { Generated } from 'kysely';
import type { CreatedAt, Json, Optional, Timestamp } from './columns.js';

/** What every account that signs in owns: revoked tokens, reset and verification codes, notifications. */

export interface RevokedTokensTable {
  jti: string;
  tenant_id: string;
  expires_at: Date;
  revoked_at: CreatedAt;
}

/** Why a refresh token's family ended before its time. */
export type RefreshTokenRevocation = 'REUSED' | 'LOGOUT' | 'PASSWORD_CHANGED' | 'PASSWORD_RESET' | 'DEACTIVATED';

/**
 * A refresh token, stored only as its SHA-256: one of a family (a session opened by one login),
 * spent once (`used_at`), ending with its family (`expires_at`, or `revoked_at` with the reason).
 */
export interface RefreshTokensTable {
  id: Generated<string>;
  tenant_id: string;
  subject_kind: 'client' | 'staff';
  /** The client's or staff member's id. */
  subject_id: string;
  family_id: string;
  token_hash: string;
  /** The subject's session version at login: a later one (password changed, deactivated) ends the family. */
  session_version: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: RefreshTokenRevocation | null;
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
