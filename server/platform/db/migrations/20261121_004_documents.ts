import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// The bytes live in object storage (local disk or S3) under `storage_key`; the row is the index.
const up = [
  `create table documents (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null references clients(id),
    name text not null check (char_length(name) between 1 and 255),
    content_type text not null check (content_type in ('application/pdf','image/jpeg','image/png','image/webp','image/heic')),
    size bigint not null check (size > 0),
    sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
    storage_key text not null unique,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index documents_client_idx on documents (tenant_id, client_id)`,
];

const down = ['drop table documents'];

export const documents = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
