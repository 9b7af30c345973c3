import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// An inbox page (a client's or a staff member's notifications, newest first, the id breaking ties)
// read in order from an index: the indexes of migrations 003 and 012 put `status` before
// `created_at`, so a page without a status filter sorted all the owner's notifications first
// (3,600 rows for one of the bench's clients).
const up = [
  `create index notifications_client_order_idx on notifications (tenant_id, client_id, created_at desc, id)`,
  `create index notifications_staff_order_idx on notifications (tenant_id, staff_id, created_at desc, id) where staff_id is not null`,
];

const down = [`drop index notifications_staff_order_idx`, `drop index notifications_client_order_idx`];

export const inboxOrderIndexes = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
