import type { Migration, MigrationProvider } from 'kysely';
import { core } from './20261120_001_core.js';
import { referenceData } from './20261120_002_reference_data.js';
import { clientAccount } from './20261121_003_client_account.js';
import { documents } from './20261121_004_documents.js';
import { policies } from './20261122_005_policies.js';
import { money } from './20261123_006_money.js';
import { cart } from './20261124_007_cart.js';
import { receipts } from './20261125_008_receipts.js';
import { directDebits } from './20261126_009_direct_debits.js';
import { paymentWebhooks } from './20261127_010_payment_webhooks.js';
import { claims } from './20261128_011_claims.js';
import { staff } from './20261129_012_staff.js';
import { companies } from './20261130_013_companies.js';
import { products } from './20261130_014_products.js';
import { organisation } from './20261130_015_organisation.js';
import { staffClients } from './20261130_016_staff_clients.js';
import { paymentReviews } from './20261201_017_payment_reviews.js';
import { claimDecisions } from './20261201_018_claim_decisions.js';
import { closureDecisions } from './20261201_019_closure_decisions.js';
import { policyLifecycle } from './20261201_020_policy_lifecycle.js';
import { policyListIndexes } from './20261202_021_policy_list_indexes.js';
import { credentialNotices } from './20261203_022_credential_notices.js';
import { inboxOrderIndexes } from './20261203_023_inbox_order_indexes.js';
import { domainEvents } from './20261204_024_domain_events.js';
import { messageDelivery } from './20261205_025_message_delivery.js';
import { staffCounter } from './20261206_026_staff_counter.js';
import { staffAdministration } from './20261207_027_staff_administration.js';
import { internalControls } from './20261208_028_internal_controls.js';
import { auditTrail } from './20261209_029_audit_trail.js';
import { webhooks } from './20261210_030_webhooks.js';
import { refreshTokens } from './20261211_031_refresh_tokens.js';
import { idempotencyByCaller } from './20261212_032_idempotency_by_caller.js';
import { backlogIndexes } from './20261213_033_backlog_indexes.js';
import { jobNotices } from './20261214_034_job_notices.js';

/** Every migration in order, listed explicitly (no directory scan: bundlers and tests see the same list). */
export const migrations: Record<string, Migration> = {
  '20261120_001_core': core,
  '20261120_002_reference_data': referenceData,
  '20261121_003_client_account': clientAccount,
  '20261121_004_documents': documents,
  '20261122_005_policies': policies,
  '20261123_006_money': money,
  '20261124_007_cart': cart,
  '20261125_008_receipts': receipts,
  '20261126_009_direct_debits': directDebits,
  '20261127_010_payment_webhooks': paymentWebhooks,
  '20261128_011_claims': claims,
  '20261129_012_staff': staff,
  '20261130_013_companies': companies,
  '20261130_014_products': products,
  '20261130_015_organisation': organisation,
  '20261130_016_staff_clients': staffClients,
  '20261201_017_payment_reviews': paymentReviews,
  '20261201_018_claim_decisions': claimDecisions,
  '20261201_019_closure_decisions': closureDecisions,
  '20261201_020_policy_lifecycle': policyLifecycle,
  '20261202_021_policy_list_indexes': policyListIndexes,
  '20261203_022_credential_notices': credentialNotices,
  '20261203_023_inbox_order_indexes': inboxOrderIndexes,
  '20261204_024_domain_events': domainEvents,
  '20261205_025_message_delivery': messageDelivery,
  '20261206_026_staff_counter': staffCounter,
  '20261207_027_staff_administration': staffAdministration,
  '20261208_028_internal_controls': internalControls,
  '20261209_029_audit_trail': auditTrail,
  '20261210_030_webhooks': webhooks,
  '20261211_031_refresh_tokens': refreshTokens,
  '20261212_032_idempotency_by_caller': idempotencyByCaller,
  '20261213_033_backlog_indexes': backlogIndexes,
  '20261214_034_job_notices': jobNotices,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
