import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Staff administration controls (issue 27):
// - who deactivated a staff member and their position then: only someone at or above it activates
//   them again (rows deactivated before this migration take their last changer as the deactivator);
// - a new e-mail or phone number a manager sets for another staff member waits as a verification
//   code sent to it (verification codes may now belong to a staff member, and name who asked);
// - the platform operator's restorations of a company's executive manager, with the reason.
const up = [
  `alter table staff
    add column deactivated_by_staff_id uuid references staff(id),
    add column deactivated_by_position text check (deactivated_by_position in ('LEVEL_OFFICER','HEAD_OF_DEPARTMENT','BRANCH_MANAGER','EXECUTIVE_MANAGER')),
    add column deactivated_at timestamptz`,
  `update staff set deactivated_by_staff_id = staff.updated_by_staff_id, deactivated_at = staff.updated_at,
     deactivated_by_position = (select changer.position from staff changer where changer.id = staff.updated_by_staff_id)
   where not staff.is_active`,
  `alter table verification_codes alter column client_id drop not null`,
  `alter table verification_codes add column staff_id uuid references staff(id)`,
  `alter table verification_codes add column requested_by_staff_id uuid references staff(id)`,
  `alter table verification_codes add constraint verification_codes_one_owner check ((client_id is null) <> (staff_id is null))`,
  `create index verification_codes_staff_idx on verification_codes (tenant_id, staff_id, channel, created_at desc) where staff_id is not null`,
  `create table executive_manager_restorations (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    staff_id uuid not null references staff(id),
    reason text not null check (char_length(reason) between 10 and 1000),
    was_active boolean not null,
    was_position text not null,
    created_at timestamptz not null default now()
  )`,
  `create index executive_manager_restorations_tenant_idx on executive_manager_restorations (tenant_id, created_at desc)`,
];

const down = [
  `drop table executive_manager_restorations`,
  `drop index verification_codes_staff_idx`,
  `delete from verification_codes where staff_id is not null`,
  `alter table verification_codes drop constraint verification_codes_one_owner`,
  `alter table verification_codes drop column requested_by_staff_id`,
  `alter table verification_codes drop column staff_id`,
  `alter table verification_codes alter column client_id set not null`,
  `alter table staff drop column deactivated_at, drop column deactivated_by_position, drop column deactivated_by_staff_id`,
];

export const staffAdministration = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
