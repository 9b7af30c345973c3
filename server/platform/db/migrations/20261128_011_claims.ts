import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Claims (docs/docs/state-machines.md): a client's claim on its policy, the policy's assets and third
// parties' losses it names, its supporting documents, and staff's reviews and settlements, each
// a row of its own; every change of status and stage is recorded. tenant_id leads every key and index.
const up = [
  `create table claims (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    claim_no text not null,
    client_id uuid not null references clients(id),
    policy_id uuid not null references policies(id),
    status text not null check (status in ('ACTIVE','CLOSED')),
    stage text not null check (stage in ('REVIEW','SETTLEMENT','REPUDIATION','REJECTED','SETTLED')),
    claim_type text check (claim_type in ('PARTIAL_WITHDRAWAL','FULL_WITHDRAWAL','SURRENDER','CASHBACK','HEALTH','DEATH','LOAN')),
    loss_category text check (loss_category in ('MEDICALS','CANCELLATION','DELAY','LOSS_OF_BAGGAGE')),
    date_of_loss date,
    date_of_notification date not null,
    incident_location text,
    description text,
    estimated_loss_amount numeric(18,2) not null check (estimated_loss_amount >= 0),
    currency text not null,
    exchange_rate numeric(18,6) not null check (exchange_rate > 0),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (tenant_id, claim_no),
    -- A standard claim has a loss date, place and category; a micro-insurance claim a type instead.
    check ((claim_type is null) = (date_of_loss is not null and incident_location is not null and loss_category is not null)),
    check (date_of_loss is null or date_of_notification >= date_of_loss)
  )`,
  // One index per list filter (the client's own list, by policy, status and stage).
  `create index claims_client_idx on claims (tenant_id, client_id, created_at desc)`,
  `create index claims_policy_idx on claims (tenant_id, policy_id)`,
  `create index claims_status_idx on claims (tenant_id, status)`,
  `create index claims_stage_idx on claims (tenant_id, stage)`,
  // The policy's assets a claim names, each once.
  `create table claim_assets (
    tenant_id uuid not null references companies(id),
    claim_id uuid not null references claims(id) on delete cascade,
    policy_asset_id uuid not null references policy_assets(id),
    position integer not null,
    primary key (tenant_id, claim_id, policy_asset_id)
  )`,
  `create index claim_assets_asset_idx on claim_assets (tenant_id, policy_asset_id)`,
  // Third parties' losses: the money (repair estimate or compensation) in its own numeric column,
  // the rest as sent.
  `create table claim_third_party_losses (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    claim_id uuid not null references claims(id) on delete cascade,
    position integer not null,
    type text not null check (type in ('VEHICLE_DAMAGE','PROPERTY_DAMAGE','DEATH','INJURY_TO_PERSON')),
    amount numeric(18,2) check (amount >= 0),
    details jsonb not null,
    unique (tenant_id, claim_id, position)
  )`,
  // Supporting documents; deleting a document unlinks it (the claim keeps its other evidence).
  `create table claim_documents (
    tenant_id uuid not null references companies(id),
    claim_id uuid not null references claims(id) on delete cascade,
    document_id uuid not null references documents(id) on delete cascade,
    position integer not null,
    primary key (tenant_id, claim_id, document_id)
  )`,
  `create index claim_documents_document_idx on claim_documents (tenant_id, document_id)`,
  `create table claim_reviews (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    claim_id uuid not null references claims(id) on delete cascade,
    inspection_notes text,
    general_notes text,
    adjusted_settlement_amount numeric(18,2) check (adjusted_settlement_amount >= 0),
    created_by_staff_id uuid not null,
    document_ids jsonb not null default '[]',
    created_at timestamptz not null default now()
  )`,
  `create index claim_reviews_claim_idx on claim_reviews (tenant_id, claim_id, created_at)`,
  `create table claim_settlements (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    claim_id uuid not null references claims(id) on delete cascade,
    amount numeric(18,2) not null check (amount >= 0),
    penalty_applicable text check (penalty_applicable in ('FEE','PERCENTAGE')),
    contribution_applicable boolean not null default false,
    recipient text not null,
    payment_date date not null,
    payment_method text not null check (payment_method in ('ONLINE','MOBILE_MONEY','CASH','CHEQUE','BANK_TRANSFER','UNSPECIFIED')),
    payment_method_info text not null check (char_length(payment_method_info) >= 2),
    created_by_staff_id uuid not null,
    document_ids jsonb not null default '[]',
    created_at timestamptz not null default now()
  )`,
  `create index claim_settlements_claim_idx on claim_settlements (tenant_id, claim_id, created_at)`,
  // Every change of a claim's status or stage (server/domain/states/claim.ts), its creation included.
  `create table claim_state_changes (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    claim_id uuid not null references claims(id) on delete cascade,
    field text not null check (field in ('status','stage')),
    from_state text,
    to_state text not null,
    actor_kind text not null check (actor_kind in ('client','staff','system')),
    actor_id uuid,
    notes text,
    created_at timestamptz not null default now()
  )`,
  `create index claim_state_changes_claim_idx on claim_state_changes (tenant_id, claim_id, created_at)`,
];

const down = ['claim_state_changes', 'claim_settlements', 'claim_reviews', 'claim_documents', 'claim_third_party_losses', 'claim_assets', 'claims']
  .map((table) => `drop table ${table}`);

export const claims = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
