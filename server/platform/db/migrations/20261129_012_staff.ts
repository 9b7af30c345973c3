import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Staff: the company's organisation (branches, departments), its staff members with their own
// credentials, and the company fields the platform operator sets.
const up = [
  `alter table companies
    add column db_name text check (char_length(db_name) >= 3),
    add column database_uri text,
    add column firebase_config jsonb`,
  `create table branches (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    name text not null check (char_length(name) >= 3),
    address text check (char_length(address) >= 3),
    description text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index branches_tenant_name_key on branches (tenant_id, lower(name))`,
  `create table departments (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    branch_id uuid not null references branches(id),
    name text not null check (char_length(name) >= 3),
    description text check (char_length(description) >= 3),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index departments_branch_name_key on departments (tenant_id, branch_id, lower(name))`,
  `create index departments_branch_idx on departments (tenant_id, branch_id)`,
  `create table staff (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    email text not null,
    phone_number text check (char_length(phone_number) between 10 and 15),
    first_name text not null,
    other_names text,
    last_name text not null,
    is_active boolean not null default true,
    type text not null default 'NORMAL_STAFF' check (type in ('AGENT','NORMAL_STAFF')),
    job_title text,
    position text not null check (position in ('LEVEL_OFFICER','HEAD_OF_DEPARTMENT','BRANCH_MANAGER','EXECUTIVE_MANAGER')),
    address text,
    staff_no text check (char_length(staff_no) >= 2),
    gender text check (gender in ('MALE','FEMALE','OTHER')),
    date_of_birth date,
    department_id uuid references departments(id),
    password_hash text,
    session_version integer not null default 1,
    created_by_staff_id uuid references staff(id),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    -- everyone but an executive manager works in a department (which names the branch)
    check (position = 'EXECUTIVE_MANAGER' or department_id is not null)
  )`,
  `create unique index staff_tenant_email_key on staff (tenant_id, lower(email))`,
  `create unique index staff_tenant_phone_key on staff (tenant_id, phone_number) where phone_number is not null`,
  `create unique index staff_tenant_staff_no_key on staff (tenant_id, staff_no) where staff_no is not null`,
  `create index staff_department_idx on staff (tenant_id, department_id)`,
  // Who brought a client in and who sold a policy: now real staff rows.
  `alter table clients add constraint clients_created_by_staff_fkey foreign key (created_by_staff_id) references staff(id)`,
  `alter table clients add constraint clients_originating_staff_fkey foreign key (originating_staff_id) references staff(id)`,
  `create index clients_originating_staff_idx on clients (tenant_id, originating_staff_id) where originating_staff_id is not null`,
  `alter table policies add constraint policies_created_by_staff_fkey foreign key (created_by_staff_id) references staff(id)`,
  `alter table policies add constraint policies_originating_staff_fkey foreign key (originating_staff_id) references staff(id)`,
  `create index policies_originating_staff_idx on policies (tenant_id, originating_staff_id) where originating_staff_id is not null`,
  // Notifications and reset codes go to a client or to a staff member: exactly one of them.
  `alter table notifications alter column client_id drop not null`,
  `alter table notifications add column staff_id uuid references staff(id)`,
  `alter table notifications add constraint notifications_one_recipient check ((client_id is null) <> (staff_id is null))`,
  `create index notifications_staff_idx on notifications (tenant_id, staff_id, status, created_at desc) where staff_id is not null`,
  `alter table password_reset_codes alter column client_id drop not null`,
  `alter table password_reset_codes add column staff_id uuid references staff(id)`,
  `alter table password_reset_codes add constraint password_reset_codes_one_owner check ((client_id is null) <> (staff_id is null))`,
  `create index password_reset_codes_staff_idx on password_reset_codes (tenant_id, staff_id, created_at desc) where staff_id is not null`,
];

const down = [
  `drop index password_reset_codes_staff_idx`,
  `alter table password_reset_codes drop constraint password_reset_codes_one_owner`,
  `alter table password_reset_codes drop column staff_id`,
  `delete from password_reset_codes where client_id is null`,
  `alter table password_reset_codes alter column client_id set not null`,
  `drop index notifications_staff_idx`,
  `alter table notifications drop constraint notifications_one_recipient`,
  `alter table notifications drop column staff_id`,
  `delete from notifications where client_id is null`,
  `alter table notifications alter column client_id set not null`,
  `drop index policies_originating_staff_idx`,
  `alter table policies drop constraint policies_originating_staff_fkey`,
  `alter table policies drop constraint policies_created_by_staff_fkey`,
  `drop index clients_originating_staff_idx`,
  `alter table clients drop constraint clients_originating_staff_fkey`,
  `alter table clients drop constraint clients_created_by_staff_fkey`,
  `drop table staff`,
  `drop table departments`,
  `drop table branches`,
  `alter table companies drop column firebase_config, drop column database_uri, drop column db_name`,
];

export const staff = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
