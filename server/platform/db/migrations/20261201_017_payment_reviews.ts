import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Payment reviews: who approved or rejected a payment waiting for staff (cash, cheque, bank
// transfer), when, and their notes or the rejection's reason. Who recorded a payment (staff taking
// it for a client) is `created_by_staff_id`, now a staff reference, filled in for the payments
// recorded before from their first state change.
const up = [
  `alter table transactions
    add column reviewed_by_staff_id uuid references staff(id),
    add column reviewed_at timestamptz,
    add column review_notes text check (char_length(review_notes) <= 500),
    add constraint transactions_review_whole check ((reviewed_at is null) = (reviewed_by_staff_id is null)),
    add constraint transactions_created_by_staff_fkey foreign key (created_by_staff_id) references staff(id)`,
  `update transactions t set created_by_staff_id = sc.actor_id::uuid
    from transaction_state_changes sc
    where sc.transaction_id = t.id and sc.tenant_id = t.tenant_id and sc.from_state is null and sc.actor_kind = 'staff'
      and t.created_by_staff_id is null
      and sc.actor_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
      and exists (select 1 from staff s where s.id = sc.actor_id::uuid)`,
];

const down = [
  `alter table transactions drop constraint transactions_created_by_staff_fkey, drop constraint transactions_review_whole,
    drop column review_notes, drop column reviewed_at, drop column reviewed_by_staff_id`,
];

export const paymentReviews = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
