import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Internal controls (issue 27). `clients.credentials_set_by_staff_id`: the staff member who last
// chose a way into a client's account (opened it, so chose where its set-up code goes, or set its
// password, e-mail or phone); they never approve that client's payments. Backfilled with who
// opened each staff-made account. `settlement_controls`: a company's own claim settlement limits
// by position and its four-eyes threshold, each within the platform's defaults
// (server/domain/staff/settlement-authority.ts); no row, or no figure, means the default.
const up = [
  `alter table clients add column credentials_set_by_staff_id uuid references staff(id)`,
  `update clients set credentials_set_by_staff_id = created_by_staff_id where created_by_staff_id is not null`,
  `create table settlement_controls (
     tenant_id uuid primary key references companies(id),
     limits jsonb not null default '{}'::jsonb,
     four_eyes_threshold numeric(18,2) check (four_eyes_threshold >= 0),
     reason text,
     updated_by_staff_id uuid references staff(id),
     updated_at timestamptz not null default now()
   )`,
];

const down = [
  `drop table settlement_controls`,
  `alter table clients drop column credentials_set_by_staff_id`,
];

export const internalControls = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
