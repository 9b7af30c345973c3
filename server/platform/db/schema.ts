import type { Insertable, Selectable, Updateable } from 'kysely';
import type { NotificationsTable, PasswordResetCodesTable, RefreshTokensTable, RevokedTokensTable, VerificationCodesTable } from './schema/accounts.js';
import type { ClaimAssetsTable, ClaimDocumentsTable, ClaimReviewsTable, ClaimSettlementsTable, ClaimStateChangesTable, ClaimThirdPartyLossesTable, ClaimsTable, SettlementControlsTable } from './schema/claims.js';
import type { ClientsTable, DeliveryAddressesTable } from './schema/clients.js';
import type { ApiKeysTable, CompaniesTable } from './schema/companies.js';
import type { DocumentsTable } from './schema/documents.js';
import type { DirectDebitRunsTable, DirectDebitsTable, InvoiceItemsTable, InvoicesTable, PaymentEventsTable, TransactionStateChangesTable, TransactionsTable } from './schema/money.js';
import type { BranchesTable, DepartmentsTable, ExecutiveManagerRestorationsTable, StaffTable } from './schema/organisation.js';
import type { AuditEventsTable, DomainEventsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, IdempotencyKeysTable, JobsTable, OutboxTable, RateLimitBucketsTable, TenantSequencesTable } from './schema/platform.js';
import type { CartItemsTable, PoliciesTable, PolicyAssetsTable, PolicyClosuresTable, PolicyRenewalRemindersTable, PolicyStateChangesTable } from './schema/policies.js';
import type { ProductAssignmentsTable, ProductsTable } from './schema/products.js';
import type { CountriesTable, CurrenciesTable, VehicleBodyTypesTable, VehicleMakesTable, VehicleScheduleTypesTable } from './schema/reference.js';

export type * from './schema/companies.js';
export type * from './schema/clients.js';
export type * from './schema/accounts.js';
export type * from './schema/platform.js';
export type * from './schema/reference.js';
export type * from './schema/products.js';
export type * from './schema/documents.js';
export type * from './schema/policies.js';
export type * from './schema/money.js';
export type * from './schema/claims.js';
export type * from './schema/organisation.js';

/**
 * Kysely's view of the tables (written beside the migrations that create them): one file per
 * domain noun under schema/, gathered here into the \`Database\` every query is typed against.
 */

export interface Database {
  companies: CompaniesTable;
  branches: BranchesTable;
  departments: DepartmentsTable;
  staff: StaffTable;
  executive_manager_restorations: ExecutiveManagerRestorationsTable;
  api_keys: ApiKeysTable;
  clients: ClientsTable;
  revoked_tokens: RevokedTokensTable;
  refresh_tokens: RefreshTokensTable;
  password_reset_codes: PasswordResetCodesTable;
  outbox: OutboxTable;
  domain_events: DomainEventsTable;
  audit_events: AuditEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  countries: CountriesTable;
  currencies: CurrenciesTable;
  vehicle_makes: VehicleMakesTable;
  vehicle_body_types: VehicleBodyTypesTable;
  vehicle_schedule_types: VehicleScheduleTypesTable;
  products: ProductsTable;
  product_assignments: ProductAssignmentsTable;
  delivery_addresses: DeliveryAddressesTable;
  notifications: NotificationsTable;
  verification_codes: VerificationCodesTable;
  documents: DocumentsTable;
  tenant_sequences: TenantSequencesTable;
  policies: PoliciesTable;
  policy_assets: PolicyAssetsTable;
  policy_state_changes: PolicyStateChangesTable;
  policy_renewal_reminders: PolicyRenewalRemindersTable;
  invoices: InvoicesTable;
  transactions: TransactionsTable;
  policy_closures: PolicyClosuresTable;
  invoice_items: InvoiceItemsTable;
  transaction_state_changes: TransactionStateChangesTable;
  idempotency_keys: IdempotencyKeysTable;
  payment_events: PaymentEventsTable;
  cart_items: CartItemsTable;
  direct_debits: DirectDebitsTable;
  direct_debit_runs: DirectDebitRunsTable;
  jobs: JobsTable;
  claims: ClaimsTable;
  claim_assets: ClaimAssetsTable;
  claim_third_party_losses: ClaimThirdPartyLossesTable;
  claim_documents: ClaimDocumentsTable;
  claim_reviews: ClaimReviewsTable;
  claim_settlements: ClaimSettlementsTable;
  claim_state_changes: ClaimStateChangesTable;
  settlement_controls: SettlementControlsTable;
}

export type CompanyRow = Selectable<CompaniesTable>;
export type StaffRow = Selectable<StaffTable>;
export type ClientRow = Selectable<ClientsTable>;
export type NewClient = Insertable<ClientsTable>;
export type ClientUpdate = Updateable<ClientsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type DocumentRow = Selectable<DocumentsTable>;

/** Tables whose rows belong to one tenant; every query on them goes through `scoped()`. */
export type TenantTable = 'api_keys' | 'clients' | 'revoked_tokens' | 'refresh_tokens' | 'password_reset_codes' | 'outbox' | 'product_assignments'
  | 'delivery_addresses' | 'notifications' | 'verification_codes' | 'documents' | 'tenant_sequences' | 'policies'
  | 'policy_assets' | 'policy_state_changes' | 'policy_renewal_reminders' | 'invoices' | 'transactions' | 'policy_closures' | 'invoice_items'
  | 'transaction_state_changes' | 'idempotency_keys' | 'payment_events' | 'cart_items' | 'direct_debits' | 'direct_debit_runs'
  | 'claims' | 'claim_assets' | 'claim_third_party_losses' | 'claim_documents' | 'claim_reviews' | 'claim_settlements' | 'claim_state_changes'
  | 'branches' | 'departments' | 'staff' | 'domain_events' | 'audit_events' | 'webhook_endpoints' | 'webhook_deliveries' | 'webhook_attempts' | 'executive_manager_restorations' | 'settlement_controls';
