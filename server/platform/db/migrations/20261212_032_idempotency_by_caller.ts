import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Idempotency-Key on every create a client or staff member calls (not only payments): a key belongs
// to its caller, `actor_kind` (`client` or `staff`) and `actor_id`, not to a client row, so staff
// keys have a home too. `request_hash` is the request's fingerprint (path and body; an upload's
// path alone); `response_status` and `response_body` the first answer exactly as sent (its JSON text, byte for byte) (null while
// the request runs). Keys live 24 hours, so the table is made afresh: keys in flight are forgotten.
const up = [
  `drop table idempotency_keys`,
  `create table idempotency_keys (
    tenant_id uuid not null references companies(id),
    actor_kind text not null check (actor_kind in ('client', 'staff')),
    actor_id uuid not null,
    operation text not null,
    key text not null,
    request_hash text not null,
    response_status integer,
    response_body text,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    primary key (tenant_id, actor_kind, actor_id, operation, key)
  )`,
  `create index idempotency_keys_expiry_idx on idempotency_keys (expires_at)`,
];

const down = [
  `drop table idempotency_keys`,
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
];

export const idempotencyByCaller = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
