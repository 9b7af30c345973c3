import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Events and webhooks for integrators (issue 28).
// - `domain_events.payload`: the event's object as the API answered it at that moment, and
//   `api_version`, the contract's version it was written in; both null for events the catalogue
//   keeps internal.
// - `webhook_endpoints`: where a company's events are delivered: the URL, the event types it takes
//   (null: every type), its signing secret (`whsec_...`; the previous one keeps signing beside it
//   until `previous_secret_expires_at`), and whether it is enabled (`disabled_reason` when the
//   platform turned it off after failing for days).
// - `webhook_deliveries`: one per event and endpoint, made in the event's transaction; its
//   attempts in `webhook_attempts` (status code, duration, the first bytes of the answer).
// Endpoints are a staff decision: audited like the other business tables.
const up = [
  `alter table domain_events add column api_version text`,
  `alter table domain_events add column payload jsonb`,
  `create table webhook_endpoints (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    url text not null,
    description text,
    event_types text[],
    enabled boolean not null default true,
    secret text not null,
    previous_secret text,
    previous_secret_expires_at timestamptz,
    failing_since timestamptz,
    disabled_reason text,
    created_by_staff_id uuid references staff(id),
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
  `create index webhook_endpoints_order_idx on webhook_endpoints (tenant_id, created_at desc, id desc)`,
  `create table webhook_deliveries (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
    event_id uuid not null references domain_events(id) on delete cascade,
    status text not null default 'PENDING' check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    unique (endpoint_id, event_id)
  )`,
  `create index webhook_deliveries_order_idx on webhook_deliveries (tenant_id, endpoint_id, created_at desc, id desc)`,
  `create index webhook_deliveries_event_idx on webhook_deliveries (event_id)`,
  `create table webhook_attempts (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
    status_code integer,
    duration_ms integer not null,
    response_excerpt text,
    error text,
    created_at timestamptz not null
  )`,
  `create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, created_at desc)`,
  `create index domain_events_type_idx on domain_events (tenant_id, type, created_at desc, id desc)`,
  `create trigger webhook_endpoints_audit after insert or update or delete on webhook_endpoints
    for each row execute function audit_row_change('WebhookEndpoint', 'id', 'tenant_id')`,
];

const down = [
  `drop table webhook_attempts`,
  `drop table webhook_deliveries`,
  `drop table webhook_endpoints`,
  `drop index domain_events_type_idx`,
  `alter table domain_events drop column payload`,
  `alter table domain_events drop column api_version`,
];

export const webhooks = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
