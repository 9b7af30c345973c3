import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Policy lists filtered by state and product, newest first (`npm run bench` measures them at a
// million policies): the equality filters lead, the order follows, the date ranges ride along
// (INCLUDE), so a page reads its rows in order from one index and its count needs no other. A
// client's list (client_id after tenant_id) and a staff member's tenant-wide one.
const up = [
  `create index policies_client_filters_idx on policies (tenant_id, client_id, state, product_id, created_at desc, id desc)
    include (start_date, end_date)`,
  `create index policies_tenant_filters_idx on policies (tenant_id, state, product_id, created_at desc, id desc)
    include (start_date, end_date)`,
];

const down = [`drop index policies_tenant_filters_idx`, `drop index policies_client_filters_idx`];

export const policyListIndexes = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
