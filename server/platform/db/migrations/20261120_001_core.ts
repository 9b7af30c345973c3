import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Statements run one by one: PGlite's extended protocol takes a single statement per query.
const up = [
  `create table companies (
    id uuid primary key default gen_random_uuid(),
    name text not null check (char_length(name) >= 3),
    identifier text not null unique check (char_length(identifier) >= 3),
    email text not null,
    type text not null check (type in ('INSURER','BROKER','MICRO_INSURER','DIGITAL_AGENT','AGENT')),
    kind text not null check (kind in ('NON_LIFE','LIFE','HEALTH','PENSION')),
    short_name text not null,
    description text,
    primary_color text,
    sms_sender_id text check (char_length(sms_sender_id) <= 11),
    subdomain text not null unique check (char_length(subdomain) >= 3),
    address text,
    country text,
    logo_url text,
    firebase_project_id text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create table api_keys (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    name text not null,
    key_hash text not null unique,
    key_prefix text not null,
    mode text not null check (mode in ('sandbox','production')),
    created_at timestamptz not null default now(),
    revoked_at timestamptz
  )`,
  `create index api_keys_tenant_idx on api_keys (tenant_id)`,
  `create table clients (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    type text not null check (type in ('INDIVIDUAL','CORPORATE')),
    email text,
    phone_number text check (char_length(phone_number) between 10 and 15),
    password_hash text,
    firebase_uid text,
    first_name text,
    last_name text,
    other_names text,
    title text,
    gender text check (gender in ('MALE','FEMALE','OTHER')),
    date_of_birth date,
    identification_card jsonb,
    company_name text,
    date_of_incorporation date,
    contact_persons jsonb not null default '[]',
    country text not null,
    city text,
    region text,
    digital_address text,
    address text,
    industry text,
    notes text,
    groups jsonb not null default '[]',
    profile_image text,
    taxpayer_identification_number text,
    is_active boolean not null default true,
    session_version integer not null default 1,
    email_verified_at timestamptz,
    phone_verified_at timestamptz,
    deleted_at timestamptz,
    created_by_staff_id uuid,
    originating_staff_id uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check (type <> 'INDIVIDUAL' or (first_name is not null and last_name is not null) or deleted_at is not null),
    check (type <> 'CORPORATE' or company_name is not null or deleted_at is not null)
  )`,
  `create unique index clients_tenant_email_key on clients (tenant_id, lower(email)) where deleted_at is null`,
  `create unique index clients_tenant_phone_key on clients (tenant_id, phone_number) where deleted_at is null`,
  `create unique index clients_tenant_firebase_key on clients (tenant_id, firebase_uid) where firebase_uid is not null`,
  `create table revoked_tokens (
    jti uuid primary key,
    tenant_id uuid not null references companies(id),
    expires_at timestamptz not null,
    revoked_at timestamptz not null default now()
  )`,
  `create index revoked_tokens_expiry_idx on revoked_tokens (expires_at)`,
  `create table password_reset_codes (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    client_id uuid not null references clients(id),
    code_hash text not null,
    expires_at timestamptz not null,
    attempts integer not null default 0,
    consumed_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index password_reset_codes_client_idx on password_reset_codes (tenant_id, client_id, created_at desc)`,
  `create table outbox (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    channel text not null check (channel in ('email','sms')),
    recipient text not null,
    template text not null,
    subject text,
    body text not null,
    status text not null default 'PENDING' check (status in ('PENDING','SENT','FAILED')),
    attempts integer not null default 0,
    created_at timestamptz not null default now(),
    sent_at timestamptz
  )`,
  `create index outbox_pending_idx on outbox (status, created_at)`,
  `create table rate_limit_buckets (
    bucket text primary key,
    window_started_at timestamptz not null,
    hits integer not null
  )`,
  `create table countries (
    code text primary key,
    name text not null,
    phone text not null,
    currency text,
    flag text,
    state_provinces jsonb not null default '[]'
  )`,
  `create table currencies (
    id uuid primary key default gen_random_uuid(),
    code text not null unique,
    name text not null,
    symbol text not null,
    locale text not null,
    flag text,
    country text,
    is_default boolean not null default false,
    status text not null default 'ACTIVE' check (status in ('ACTIVE','INACTIVE')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index currencies_single_default on currencies (is_default) where is_default`,
  `create table vehicle_makes (
    id uuid primary key default gen_random_uuid(),
    name text not null unique check (char_length(name) >= 2),
    models jsonb not null default '[]'
  )`,
  `create table vehicle_body_types (
    id uuid primary key default gen_random_uuid(),
    code text not null unique,
    name text not null,
    description text
  )`,
  `create table vehicle_schedule_types (
    id uuid primary key default gen_random_uuid(),
    code text not null unique,
    name text not null,
    description text,
    usage text not null check (usage in ('PRIVATE','COMMERCIAL','MOTOR_CYCLE'))
  )`,
  `create table products (
    id uuid primary key default gen_random_uuid(),
    owner_tenant_id uuid references companies(id),
    insurer_id uuid not null references companies(id),
    name text not null,
    code text not null,
    description text,
    premium_rates jsonb not null default '{}',
    category text not null,
    sub_category text,
    benefits jsonb not null default '[]',
    status text not null default 'ACTIVE' check (status in ('ACTIVE','DEACTIVATED')),
    distribution text not null default 'OFFLINE' check (distribution in ('ONLINE','OFFLINE')),
    standard_commission jsonb,
    overrider_commission jsonb,
    other_commission jsonb,
    created_by uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (insurer_id, code)
  )`,
  `create table product_assignments (
    tenant_id uuid not null references companies(id),
    product_id uuid not null references products(id) on delete cascade,
    assigned_by uuid,
    assigned_at timestamptz not null default now(),
    primary key (tenant_id, product_id)
  )`,
];

const down = [
  'product_assignments', 'products', 'vehicle_schedule_types', 'vehicle_body_types', 'vehicle_makes',
  'currencies', 'countries', 'rate_limit_buckets', 'outbox', 'password_reset_codes', 'revoked_tokens',
  'clients', 'api_keys', 'companies',
].map((table) => `drop table ${table}`);

export const core = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
