import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// What the metrics scrape counts every few seconds (server/platform/observability/metrics.ts): the
// outbox messages not yet sent and the webhook deliveries not yet delivered, each read from a
// partial index of those rows only, however many sent ones the tables keep.
const up = [
  `create index outbox_unsent_idx on outbox (channel, created_at) where status in ('QUEUED', 'RETRYING')`,
  `create index webhook_deliveries_pending_idx on webhook_deliveries (created_at) where status = 'PENDING'`,
];

const down = [
  `drop index webhook_deliveries_pending_idx`,
  `drop index outbox_unsent_idx`,
];

export const backlogIndexes = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
