import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
const up = [
  `create table delivery_addresses (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null references clients(id),
    type text not null default 'PRIMARY' check (type in ('PRIMARY','SECONDARY')),
    name text not null,
    region text not null,
    city text not null,
    phone_number text not null check (char_length(phone_number) between 10 and 15),
    address text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index delivery_addresses_client_idx on delivery_addresses (tenant_id, client_id, created_at)`,
  // At most one PRIMARY address per client; making another PRIMARY demotes this one first.
  `create unique index delivery_addresses_one_primary on delivery_addresses (tenant_id, client_id) where type = 'PRIMARY'`,
  `create table notifications (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null references clients(id),
    entity jsonb,
    title text not null,
    body text not null,
    status text not null default 'unread' check (status in ('read','unread')),
    read_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check ((status = 'read') = (read_at is not null))
  )`,
  `create index notifications_client_idx on notifications (tenant_id, client_id, status, created_at desc)`,
  `create table verification_codes (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null references clients(id),
    channel text not null check (channel in ('email','phone')),
    target text not null,
    code_hash text not null,
    expires_at timestamptz not null,
    attempts integer not null default 0,
    consumed_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index verification_codes_client_idx on verification_codes (tenant_id, client_id, channel, created_at desc)`,
];

const down = ['verification_codes', 'notifications', 'delivery_addresses'].map((table) => `drop table ${table}`);

export const clientAccount = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
