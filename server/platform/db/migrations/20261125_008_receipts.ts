import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Receipts (issue 5): a confirmed payment's official receipt number (`RCT-0001`, from the tenant's
// RCT series) and when it was issued. Both are written once, when the payment is confirmed (or,
// for a payment confirmed before this migration, at its first download), and never change, so
// every copy of a receipt carries the same number and date. Only confirmed money has one.
const up = [
  `alter table transactions
     add column receipt_no text,
     add column receipt_issued_at timestamptz,
     add constraint transactions_receipt_fields check ((receipt_no is null) = (receipt_issued_at is null)),
     add constraint transactions_receipt_confirmed check (receipt_no is null or status in ('APPROVED','VERIFIED')),
     add constraint transactions_receipt_no unique (tenant_id, receipt_no)`,
];

const down = [
  `alter table transactions drop constraint transactions_receipt_no, drop constraint transactions_receipt_confirmed, drop constraint transactions_receipt_fields,
     drop column receipt_issued_at, drop column receipt_no`,
];

export const receipts = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
