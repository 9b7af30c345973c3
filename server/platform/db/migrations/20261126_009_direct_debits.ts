import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Direct debits (issue 5) and the PostgreSQL-backed job queue whose scheduled job raises them.
const up = [
  // A client's mandate: debit `amount` from a mobile money wallet toward the policy's invoice on
  // every due date from start_date, at `frequency`, until the invoice is paid, end_date passes or
  // it is cancelled. `due_count` is how many due dates have passed: the next one is computed from
  // start_date (start + n periods), so a monthly debit on the 31st does not drift to the 28th.
  `create table direct_debits (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_id uuid not null references policies(id) on delete cascade,
    invoice_id uuid not null references invoices(id) on delete cascade,
    client_id uuid not null references clients(id) on delete cascade,
    amount numeric(18,2) not null check (amount > 0),
    currency text not null,
    frequency text not null check (frequency in ('DAILY','WEEKLY','MONTHLY','QUARTERLY','HALF_YEARLY','YEARLY')),
    start_date date not null,
    end_date date check (end_date >= start_date),
    due_count integer not null default 0 check (due_count >= 0),
    next_debit_date date,
    status text not null default 'ACTIVE' check (status in ('ACTIVE','CANCELLED','COMPLETED')),
    payment_method text not null default 'MOBILE_MONEY' check (payment_method = 'MOBILE_MONEY'),
    mobile_number text not null,
    description text,
    cancel_reason text,
    cancelled_at timestamptz,
    completed_at timestamptz,
    completion_reason text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check ((status = 'ACTIVE') = (next_debit_date is not null)),
    check ((status = 'CANCELLED') = (cancelled_at is not null and cancel_reason is not null)),
    check ((status = 'COMPLETED') = (completed_at is not null))
  )`,
  `create index direct_debits_client_idx on direct_debits (tenant_id, client_id, created_at desc)`,
  `create index direct_debits_invoice_idx on direct_debits (tenant_id, invoice_id) where status = 'ACTIVE'`,
  // One active mandate per policy: the last wall behind the policy row lock.
  `create unique index direct_debits_one_active on direct_debits (tenant_id, policy_id) where status = 'ACTIVE'`,
  // The due-debit job looks across tenants for what is due (like the other expiry sweeps): the one
  // index here not led by tenant_id. On a sharded database each shard answers from its own copy.
  `create index direct_debits_due_idx on direct_debits (next_debit_date) where status = 'ACTIVE'`,

  // What happened on each due date of a mandate: a payment raised (or nothing, when payments
  // awaiting confirmation already cover the invoice). Unique per (mandate, due date): however many
  // times or instances the job runs, a due date is debited once.
  `create table direct_debit_runs (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    direct_debit_id uuid not null references direct_debits(id) on delete cascade,
    due_date date not null,
    outcome text not null check (outcome in ('RAISED','SKIPPED')),
    transaction_id uuid references transactions(id) on delete set null,
    amount numeric(18,2) not null check (amount >= 0),
    note text,
    created_at timestamptz not null default now(),
    unique (tenant_id, direct_debit_id, due_date)
  )`,
  `alter table transactions add constraint transactions_direct_debit_fk
     foreign key (direct_debit_id) references direct_debits(id) on delete set null`,
  `create index transactions_direct_debit_idx on transactions (tenant_id, direct_debit_id) where direct_debit_id is not null`,

  // The job queue (server/platform/jobs/queue.ts): background work of every instance, across tenants.
  // Workers claim ready rows with FOR UPDATE SKIP LOCKED and hold them by lease (locked_until), so
  // a crashed worker's job is taken again once its lease ends; a failed job is retried with
  // backoff until max_attempts, then kept as failed. `dedupe_key` makes an enqueue happen once
  // (a scheduled job's time slot, say), however many instances enqueue it.
  `create table jobs (
    id uuid primary key default gen_random_uuid(),
    queue text not null,
    payload jsonb not null default '{}',
    dedupe_key text unique,
    run_at timestamptz not null default now(),
    attempts integer not null default 0,
    max_attempts integer not null default 5 check (max_attempts >= 1),
    locked_by text,
    locked_until timestamptz,
    last_error text,
    done_at timestamptz,
    failed_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index jobs_ready_idx on jobs (queue, run_at) where done_at is null and failed_at is null`,
  `create index jobs_finished_idx on jobs (coalesce(done_at, failed_at)) where done_at is not null or failed_at is not null`,
];

const down = [
  'drop table jobs',
  'drop index transactions_direct_debit_idx',
  'alter table transactions drop constraint transactions_direct_debit_fk',
  'drop table direct_debit_runs',
  'drop table direct_debits',
];

export const directDebits = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
