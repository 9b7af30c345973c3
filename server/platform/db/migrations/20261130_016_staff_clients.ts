import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Staff clients: who deactivated a client, when and why (cleared when it is activated again), and
// the indexes staff client lists filter by.
const up = [
  `alter table clients
    add column deactivated_at timestamptz,
    add column deactivated_by_staff_id uuid references staff(id),
    add column deactivation_reason text check (char_length(deactivation_reason) between 3 and 500),
    add constraint clients_deactivation_whole check (
      (deactivated_at is null) = (deactivated_by_staff_id is null) and (deactivated_at is null) = (deactivation_reason is null))`,
  `create index clients_tenant_created_idx on clients (tenant_id, created_at desc, id desc) where deleted_at is null`,
];

const down = [
  `drop index clients_tenant_created_idx`,
  `alter table clients drop constraint clients_deactivation_whole,
    drop column deactivation_reason, drop column deactivated_by_staff_id, drop column deactivated_at`,
];

export const staffClients = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
