import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Payment webhooks (issue 5): a provider's webhook and the sandbox pages know a payment only by the
// provider's reference, not by its tenant; this index finds it without the tenant.
const up = [
  `create index transactions_provider_ref_lookup on transactions (provider, provider_reference) where provider_reference is not null`,
];

const down = ['drop index transactions_provider_ref_lookup'];

export const paymentWebhooks = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
