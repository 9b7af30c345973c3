import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Business events (server/domain/events/): one row per change another part of the domain reacts
// to, written in the transaction that made the change, so no change goes without its event and no
// event outlives a rolled-back change. Integrators' webhooks will read the same rows.
const up = [
  `create table domain_events (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    type text not null,
    actor_kind text not null check (actor_kind in ('client', 'staff', 'system', 'provider')),
    actor_id text,
    object_type text not null,
    object_id uuid not null,
    data jsonb not null default '{}'::jsonb,
    previous jsonb,
    created_at timestamptz not null default now()
  )`,
  `create index domain_events_order_idx on domain_events (tenant_id, created_at desc, id)`,
  `create index domain_events_object_idx on domain_events (tenant_id, object_id)`,
];

const down = [`drop table domain_events`];

export const domainEvents = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
