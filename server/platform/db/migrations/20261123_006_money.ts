import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Money (issue 5): what an invoice bills, payments with every seed field, their state history,
// idempotency keys and payment provider events.
const up = [
  // What an invoice bills, policy by policy. A policy's own invoice has one item (and keeps
  // `invoices.policy_id`, the seed's policyId); a cart checkout's invoice bills several policies
  // and has no single policy. A policy is billed by one invoice at most.
  `create table invoice_items (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    invoice_id uuid not null references invoices(id) on delete cascade,
    policy_id uuid not null references policies(id) on delete cascade,
    amount numeric(18,2) not null check (amount >= 0),
    unique (tenant_id, policy_id)
  )`,
  `create index invoice_items_invoice_idx on invoice_items (tenant_id, invoice_id)`,
  `insert into invoice_items (tenant_id, invoice_id, policy_id, amount)
     select tenant_id, id, policy_id, amount from invoices`,
  `alter table invoices alter column policy_id drop not null`,

  // Payments: the seed's Transaction fields. policy_id is the invoice's single policy (null for
  // a cart invoice); money is decimal; cheque fields are all set for CHEQUE and only then.
  `alter table transactions alter column policy_id drop not null`,
  `alter table transactions
     add column transaction_type text check (transaction_type in ('RENEWAL','EXTENSION','NEW_BUSINESS')),
     add column date_received date,
     add column payee text,
     add column payment_institution text,
     add column description text,
     add column cheque_date date,
     add column name_on_cheque text,
     add column cheque_no text,
     add column cheque_type text,
     add column document_ids jsonb not null default '[]',
     add column provider text,
     add column provider_reference text,
     add column checkout_url text,
     add column mobile_number text,
     add column direct_debit_id uuid,
     add column created_by_staff_id uuid,
     add column settled_at timestamptz,
     add constraint transactions_cheque_fields check (
       (payment_method = 'CHEQUE') = (name_on_cheque is not null and cheque_no is not null and cheque_date is not null and cheque_type is not null))`,
  `create index transactions_client_idx on transactions (tenant_id, client_id, created_at desc)`,
  `create unique index transactions_provider_ref on transactions (tenant_id, provider, provider_reference) where provider_reference is not null`,
  `create table transaction_state_changes (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    transaction_id uuid not null references transactions(id) on delete cascade,
    from_state text,
    to_state text not null,
    actor_kind text not null check (actor_kind in ('client','staff','system','provider')),
    actor_id text,
    notes text,
    created_at timestamptz not null default now()
  )`,
  `create index transaction_state_changes_tx_idx on transaction_state_changes (tenant_id, transaction_id, created_at)`,

  // Idempotency-Key: the first answer to a (client, operation, key) is kept 24 hours and replayed
  // for the same body; `request_hash` tells a different body apart; a row without an answer yet
  // is a request still running.
  `create table idempotency_keys (
    tenant_id uuid not null references companies(id),
    client_id uuid not null references clients(id) on delete cascade,
    operation text not null,
    key text not null,
    request_hash text not null,
    response_status integer,
    response_body jsonb,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    primary key (tenant_id, client_id, operation, key)
  )`,
  `create index idempotency_keys_expiry_idx on idempotency_keys (expires_at)`,

  // Events a payment provider sent (webhooks), once each by the provider's event id.
  `create table payment_events (
    tenant_id uuid not null references companies(id),
    provider text not null,
    event_id text not null,
    type text not null,
    transaction_id uuid references transactions(id) on delete set null,
    payload jsonb not null,
    outcome text not null,
    received_at timestamptz not null default now(),
    primary key (tenant_id, provider, event_id)
  )`,
];

const down = [
  'drop table payment_events', 'drop table idempotency_keys', 'drop table transaction_state_changes',
  'drop index transactions_provider_ref', 'drop index transactions_client_idx',
  `alter table transactions drop constraint transactions_cheque_fields, drop column transaction_type, drop column date_received,
     drop column payee, drop column payment_institution, drop column description, drop column cheque_date, drop column name_on_cheque,
     drop column cheque_no, drop column cheque_type, drop column document_ids, drop column provider, drop column provider_reference,
     drop column checkout_url, drop column mobile_number, drop column direct_debit_id, drop column created_by_staff_id, drop column settled_at`,
  'delete from transactions where policy_id is null',
  'alter table transactions alter column policy_id set not null',
  'delete from invoices where policy_id is null',
  'alter table invoices alter column policy_id set not null',
  'drop table invoice_items',
];

export const money = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
