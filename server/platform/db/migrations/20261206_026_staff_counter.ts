import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Staff acting for a client at the counter (issue 27): who asked for a closure, who uploaded a
// document and who cancelled a direct debit, when a staff member did it for the client (null when
// the client, or the system, did it itself).
const up = [
  `alter table policy_closures add column requested_by_staff_id uuid references staff(id)`,
  `alter table documents add column uploaded_by_staff_id uuid references staff(id)`,
  `alter table direct_debits add column cancelled_by_staff_id uuid references staff(id)`,
];

const down = [
  `alter table direct_debits drop column cancelled_by_staff_id`,
  `alter table documents drop column uploaded_by_staff_id`,
  `alter table policy_closures drop column requested_by_staff_id`,
];

export const staffCounter = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
