import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Closure decisions: who reviewed a closure request is a staff member of the company; an invoice
// of a closed policy is voided (closed with nothing left to pay), saying when and why.
const up = [
  `alter table policy_closures
    add constraint policy_closures_reviewed_by_fk foreign key (reviewed_by_staff_id) references staff(id)`,
  `alter table invoices
    add column voided_at timestamptz,
    add column void_reason text check (char_length(void_reason) between 3 and 500),
    add constraint invoices_void_whole check ((voided_at is null) = (void_reason is null))`,
];

const down = [
  `alter table invoices drop constraint invoices_void_whole, drop column void_reason, drop column voided_at`,
  `alter table policy_closures drop constraint policy_closures_reviewed_by_fk`,
];

export const closureDecisions = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
