import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Policy lifecycle: the order a policy's state changes were recorded in (several can share a
// timestamp: a creation and its payment in one request), the indexes the lifecycle job selects by
// (INACTIVE by start date, ACTIVE by end date), and the renewal reminders sent, one per policy per
// end date whatever the number of runs or instances.
const up = [
  `alter table policy_state_changes add column seq bigint generated always as identity`,
  `create index policy_state_changes_history_idx on policy_state_changes (tenant_id, policy_id, seq)`,
  `create index policies_state_start_idx on policies (state, start_date)`,
  `create index policies_state_end_idx on policies (state, end_date)`,
  `create table policy_renewal_reminders (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_id uuid not null references policies(id) on delete cascade,
    end_date date not null,
    created_at timestamptz not null default now(),
    unique (tenant_id, policy_id, end_date)
  )`,
];

const down = [
  `drop table policy_renewal_reminders`,
  `drop index policies_state_end_idx`,
  `drop index policies_state_start_idx`,
  `drop index policy_state_changes_history_idx`,
  `alter table policy_state_changes drop column seq`,
];

export const policyLifecycle = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
