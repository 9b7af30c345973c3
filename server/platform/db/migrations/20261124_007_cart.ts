import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// The cart (issue 5): each item is a policy create body kept as sent (`body`), its assets
// free-form until checkout turns the items into policies. `policy_type` is the body's, as a column.
const up = [
  `create table cart_items (
    tenant_id uuid not null references companies(id),
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null references clients(id) on delete cascade,
    policy_type text not null,
    body jsonb not null check (jsonb_typeof(body) = 'object'),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  // A client's cart, newest first: the list, the count and checkout all read it this way.
  `create index cart_items_client_idx on cart_items (tenant_id, client_id, created_at desc, id desc)`,
];

const down = ['drop table cart_items'];

export const cart = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
