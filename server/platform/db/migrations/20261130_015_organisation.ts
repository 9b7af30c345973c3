import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Organisation: who created and who last changed each branch, department and staff member (staff
// already record who created them), for the staff organisation calls.
const up = [
  `alter table branches
    add column created_by_staff_id uuid references staff(id),
    add column updated_by_staff_id uuid references staff(id)`,
  `alter table departments
    add column created_by_staff_id uuid references staff(id),
    add column updated_by_staff_id uuid references staff(id)`,
  `alter table staff add column updated_by_staff_id uuid references staff(id)`,
];

const down = [
  `alter table staff drop column updated_by_staff_id`,
  `alter table departments drop column updated_by_staff_id, drop column created_by_staff_id`,
  `alter table branches drop column updated_by_staff_id, drop column created_by_staff_id`,
];

export const organisation = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
