import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// tenant_id leads every key and index (so the schema can be distributed by tenant).
const up = [
  // Human numbers (POL-0012, INV-0007, ...) per tenant: one row per tenant and series, bumped in
  // the transaction that uses the number, so numbers are gap-free unless that transaction rolls back.
  `create table tenant_sequences (
    tenant_id uuid not null references companies(id),
    name text not null,
    last_value bigint not null,
    primary key (tenant_id, name)
  )`,
  `create table policies (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_no text not null,
    client_id uuid not null references clients(id),
    product_id uuid not null references products(id),
    policy_type text not null,
    state text not null check (state in ('DRAFT','PROCESSING','CANCELLED','AWAITING_DEBIT','ACTIVE','INACTIVE','UNDER_WRITER',
      'ACCOUNT_RECEIVABLE','CREDIT_CONTROL','COMPLETE','DECLINED','EXPIRED','ARCHIVED')),
    coverage_type text,
    cover_type text,
    business_type text not null check (business_type in ('NEW_BUSINESS','CROSS_SELLING','RENEWAL','EXTENSION')),
    business_category text not null check (business_category in ('LOCAL','GLOBAL')),
    currency text not null,
    exchange_rate numeric(18,6) not null check (exchange_rate >= 0),
    premium numeric(18,2) not null check (premium >= 0),
    sum_insured numeric(18,2) check (sum_insured >= 0),
    fleet_discount_rate numeric(9,6),
    premium_breakdown jsonb not null,
    start_date date not null,
    end_date date not null check (end_date >= start_date),
    generate_invoice boolean not null,
    old_policy_id uuid references policies(id),
    notes text,
    description text,
    additional_information jsonb,
    group_id text,
    created_by_staff_id uuid,
    originating_staff_id uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (tenant_id, policy_no)
  )`,
  // One index per list filter that is not a prefix search (those use the trigram-free ilike on few rows per client).
  `create index policies_client_idx on policies (tenant_id, client_id, created_at desc)`,
  `create index policies_state_idx on policies (tenant_id, state)`,
  `create index policies_product_idx on policies (tenant_id, product_id)`,
  `create index policies_dates_idx on policies (tenant_id, start_date, end_date)`,
  `create index policies_staff_idx on policies (tenant_id, originating_staff_id)`,
  `create index policies_old_policy_idx on policies (tenant_id, old_policy_id)`,
  `create table policy_assets (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_id uuid not null references policies(id) on delete cascade,
    position integer not null,
    details jsonb not null,
    sum_insured numeric(18,2),
    premium numeric(18,2) not null,
    unique (policy_id, position)
  )`,
  `create index policy_assets_policy_idx on policy_assets (tenant_id, policy_id)`,
  `create table policy_state_changes (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_id uuid not null references policies(id) on delete cascade,
    from_state text,
    to_state text not null,
    actor_kind text not null check (actor_kind in ('client','staff','system')),
    actor_id uuid,
    notes text,
    created_at timestamptz not null default now()
  )`,
  `create index policy_state_changes_policy_idx on policy_state_changes (tenant_id, policy_id, created_at)`,
  `create table invoices (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    invoice_no text not null,
    policy_id uuid not null references policies(id) on delete cascade,
    client_id uuid not null references clients(id),
    currency text not null,
    exchange_rate numeric(18,6) not null check (exchange_rate >= 0),
    amount numeric(18,2) not null check (amount >= 0),
    converted_amount numeric(18,2) not null,
    description text,
    invoice_date date not null,
    created_by_staff_id uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (tenant_id, invoice_no)
  )`,
  `create index invoices_policy_idx on invoices (tenant_id, policy_id)`,
  `create index invoices_client_idx on invoices (tenant_id, client_id, created_at desc)`,
  // Money received against an invoice. The payments issue writes these; a policy with any row whose
  // status is not REJECTED, CANCELLED or ERROR counts as paid.
  `create table transactions (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    transaction_no text not null,
    invoice_id uuid not null references invoices(id),
    policy_id uuid not null references policies(id),
    client_id uuid not null references clients(id),
    payment_method text not null check (payment_method in ('ONLINE','MOBILE_MONEY','CASH','CHEQUE','BANK_TRANSFER','UNSPECIFIED')),
    status text not null check (status in ('PENDING_PAYMENT','PENDING_APPROVAL','PENDING_VERIFICATION','VERIFIED','APPROVED',
      'CANCELLED','REJECTED','ERROR')),
    amount numeric(18,2) not null check (amount >= 0),
    currency text not null,
    exchange_rate numeric(18,6) not null,
    converted_amount numeric(18,2) not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (tenant_id, transaction_no)
  )`,
  `create index transactions_policy_idx on transactions (tenant_id, policy_id)`,
  `create index transactions_invoice_idx on transactions (tenant_id, invoice_id)`,
  `create table policy_closures (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    policy_id uuid not null references policies(id) on delete cascade,
    client_id uuid not null references clients(id),
    status text not null default 'PENDING_REVIEW' check (status in ('PENDING_REVIEW','APPROVED','REJECTED')),
    reason text not null,
    effective_date date not null,
    notes text,
    document_ids jsonb not null default '[]',
    reviewed_by_staff_id uuid,
    reviewed_at timestamptz,
    review_notes text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index policy_closures_client_idx on policy_closures (tenant_id, client_id, created_at desc)`,
  `create index policy_closures_policy_idx on policy_closures (tenant_id, policy_id)`,
  // At most one closure request under review per policy.
  `create unique index policy_closures_one_pending on policy_closures (tenant_id, policy_id) where status = 'PENDING_REVIEW'`,
];

const down = ['policy_closures', 'transactions', 'invoices', 'policy_state_changes', 'policy_assets', 'policies', 'tenant_sequences']
  .map((table) => `drop table ${table}`);

export const policies = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
