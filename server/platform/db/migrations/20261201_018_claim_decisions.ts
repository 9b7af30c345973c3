import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Claim decisions (server/domain/claims/handling.ts): a settlement keeps the penalty's value (an
// amount for a FEE, a percent for a PERCENTAGE) and the client's contribution it was held to, each
// present exactly when it applies; the history names staff by id.
const up = [
  `alter table claim_settlements
    add column penalty_value numeric(18,2) check (penalty_value >= 0),
    add column contribution_amount numeric(18,2) check (contribution_amount >= 0),
    add constraint claim_settlements_penalty_whole check (penalty_value is null or penalty_applicable is not null),
    add constraint claim_settlements_penalty_percent check (penalty_applicable is distinct from 'PERCENTAGE' or penalty_value <= 100),
    add constraint claim_settlements_contribution_whole check (contribution_applicable or contribution_amount is null)`,
  // One settlement per claim: it settles and closes the claim.
  `create unique index claim_settlements_one_per_claim on claim_settlements (tenant_id, claim_id)`,
];

const down = [
  `drop index claim_settlements_one_per_claim`,
  `alter table claim_settlements drop constraint claim_settlements_contribution_whole, drop constraint claim_settlements_penalty_percent,
    drop constraint claim_settlements_penalty_whole, drop column contribution_amount, drop column penalty_value`,
];

export const claimDecisions = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
