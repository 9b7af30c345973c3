import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Refresh tokens (OAuth 2.0 Security BCP rotation) for client and staff sessions.
// - `refresh_tokens`: one row per refresh token, stored only as the SHA-256 of the token
//   (`token_hash`), of a tenant's client or staff member (`subject_kind`, `subject_id`). A login
//   opens a family (`family_id`, also the `sid` claim of every access token the session gets);
//   each refresh spends its token (`used_at`) and adds the family's next one, with the family's
//   `expires_at` (a family ends N days after its login whatever its rotations) and the subject's
//   `session_version` at login. A spent token presented again revokes the whole family
//   (`revoked_reason` REUSED); logout, password changes and resets, and deactivation revoke the
//   families they end (LOGOUT, PASSWORD_CHANGED, PASSWORD_RESET, DEACTIVATED).
// - `staff.refresh_token_reused_at`: when a staff member's spent refresh token was last presented
//   again, so the audit trail (StaffMember, action refreshStaffToken) records the reuse.
const up = [
  `create table refresh_tokens (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    subject_kind text not null check (subject_kind in ('client', 'staff')),
    subject_id uuid not null,
    family_id uuid not null,
    token_hash text not null unique,
    session_version integer not null,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    revoked_at timestamptz,
    revoked_reason text check (revoked_reason in ('REUSED', 'LOGOUT', 'PASSWORD_CHANGED', 'PASSWORD_RESET', 'DEACTIVATED')),
    check ((revoked_at is null) = (revoked_reason is null))
  )`,
  `create index refresh_tokens_family_idx on refresh_tokens (family_id)`,
  `create index refresh_tokens_subject_idx on refresh_tokens (tenant_id, subject_kind, subject_id) where revoked_at is null`,
  `create index refresh_tokens_expiry_idx on refresh_tokens (expires_at)`,
  `alter table staff add column refresh_token_reused_at timestamptz`,
];

const down = [
  `alter table staff drop column refresh_token_reused_at`,
  `drop table refresh_tokens`,
];

export const refreshTokens = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
