import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { components } from '../../../generated/api.js';

/** Kysely's view of the tables (written beside the migrations that create them). */

/** The contract's schemas: a column holding one of its enums takes the enum's type from there. */
type Schemas = components['schemas'];

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A `date` column: `YYYY-MM-DD` both ways. */
type PlainDate = string;
/** A `numeric` column: decimal strings out, strings or numbers in. */
type Numeric = ColumnType<string, string | number, string | number>;
type Json<T> = ColumnType<T, string, string>;
/** A nullable column added after its table: null unless given. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type CompanyType = Schemas['CompanyType'];
export type CompanyKind = Schemas['CompanyKind'];

export interface CompaniesTable {
  id: Generated<string>;
  name: string;
  identifier: string;
  email: string;
  type: CompanyType;
  kind: CompanyKind;
  short_name: string;
  description: string | null;
  primary_color: string | null;
  sms_sender_id: string | null;
  subdomain: string;
  address: string | null;
  country: string | null;
  logo_url: string | null;
  firebase_project_id: string | null;
  db_name: Optional<string>;
  /** A connection string: stored for the operator, never answered. */
  database_uri: Optional<string>;
  /** Firebase service account of the company's project (`privateKey` never answered). */
  firebase_config: ColumnType<FirebaseConfigRow | null, string | null | undefined, string | null>;
  /** The logo's bytes in document storage (`<companyId>/logo-<uuid>`), its sniffed type and size. */
  logo_storage_key: Optional<string>;
  logo_content_type: Optional<'image/jpeg' | 'image/png' | 'image/webp'>;
  logo_size: Optional<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface FirebaseConfigRow { databaseUrl?: string; clientEmail?: string; projectId: string; privateKey?: string }

export interface ApiKeysTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  mode: 'sandbox' | 'production';
  created_at: CreatedAt;
  revoked_at: Date | null;
}

export interface ContactPersonRow { phoneNumber: string; email: string; position: string; name: string }
export interface IdentificationCardRow { idNumber: string; type: string; issueDate: string; expiryDate?: string | null }

export interface ClientsTable {
  tenant_id: string;
  id: Generated<string>;
  type: 'INDIVIDUAL' | 'CORPORATE';
  email: string | null;
  phone_number: string | null;
  password_hash: string | null;
  firebase_uid: string | null;
  first_name: string | null;
  last_name: string | null;
  other_names: string | null;
  title: string | null;
  gender: Schemas['Gender'] | null;
  date_of_birth: PlainDate | null;
  identification_card: Json<IdentificationCardRow | null>;
  company_name: string | null;
  date_of_incorporation: PlainDate | null;
  contact_persons: Json<ContactPersonRow[]>;
  country: string;
  city: string | null;
  region: string | null;
  digital_address: string | null;
  address: string | null;
  industry: string | null;
  notes: string | null;
  groups: Json<string[]>;
  profile_image: string | null;
  taxpayer_identification_number: string | null;
  is_active: Generated<boolean>;
  /** Bumped when the password changes: tokens carrying an older version stop working. */
  session_version: Generated<number>;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  deleted_at: Date | null;
  created_by_staff_id: string | null;
  originating_staff_id: string | null;
  /** Set together while a staff member has the client deactivated; cleared when it is activated. */
  deactivated_at: Optional<Date>;
  deactivated_by_staff_id: Optional<string>;
  deactivation_reason: Optional<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface RevokedTokensTable {
  jti: string;
  tenant_id: string;
  expires_at: Date;
  revoked_at: CreatedAt;
}

export interface PasswordResetCodesTable {
  id: Generated<string>;
  tenant_id: string;
  /** The client or (with `staff_id`) the staff member the code was sent to: exactly one. */
  client_id: string | null;
  staff_id: Optional<string>;
  code_hash: string;
  expires_at: Date;
  attempts: Generated<number>;
  consumed_at: Date | null;
  created_at: CreatedAt;
}

export interface OutboxTable {
  id: Generated<string>;
  tenant_id: string;
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  subject: string | null;
  body: string;
  status: Generated<'PENDING' | 'SENT' | 'FAILED'>;
  attempts: Generated<number>;
  created_at: CreatedAt;
  sent_at: Date | null;
}

/** A business change other parts of the domain react to (server/domain/events/), recorded with it. */
export interface DomainEventsTable {
  id: Generated<string>;
  tenant_id: string;
  type: string;
  actor_kind: 'client' | 'staff' | 'system' | 'provider';
  actor_id: string | null;
  object_type: string;
  object_id: string;
  data: Json<Record<string, unknown>>;
  previous: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Date;
}

export interface RateLimitBucketsTable {
  bucket: string;
  window_started_at: Date;
  hits: number;
}

export interface StateProvinceRow { name: string; code: string }

export interface CountriesTable {
  code: string;
  name: string;
  phone: string;
  currency: string | null;
  flag: string | null;
  state_provinces: Json<StateProvinceRow[]>;
}

export interface CurrenciesTable {
  id: Generated<string>;
  code: string;
  name: string;
  symbol: string;
  locale: string;
  flag: string | null;
  country: string | null;
  is_default: Generated<boolean>;
  status: Generated<Schemas['CurrencyStatus']>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface VehicleMakesTable { id: Generated<string>; name: string; models: Json<string[]> }
export interface VehicleBodyTypesTable { id: Generated<string>; code: string; name: string; description: string | null }
export interface VehicleScheduleTypesTable {
  id: Generated<string>;
  code: string;
  name: string;
  description: string | null;
  usage: 'PRIVATE' | 'COMMERCIAL' | 'MOTOR_CYCLE';
}

export interface CommissionRow { value: number; type: 'FEE' | 'PERCENTAGE' }

export interface ProductsTable {
  id: Generated<string>;
  owner_tenant_id: string | null;
  insurer_id: string;
  name: string;
  code: string;
  description: string | null;
  premium_rates: Json<Record<string, number>>;
  category: string;
  sub_category: string | null;
  benefits: Json<string[]>;
  status: Generated<'ACTIVE' | 'DEACTIVATED'>;
  distribution: Generated<'ONLINE' | 'OFFLINE'>;
  standard_commission: Json<CommissionRow | null>;
  overrider_commission: Json<CommissionRow | null>;
  other_commission: Json<CommissionRow | null>;
  /** The staff member who created it (migration 014: a staff FK); null for the platform's products. */
  created_by: string | null;
  /** Who last activated or deactivated it, and when (migration 014). */
  status_changed_by: Optional<string>;
  status_changed_at: Optional<Date>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProductAssignmentsTable {
  tenant_id: string;
  product_id: string;
  assigned_by: string | null;
  assigned_at: CreatedAt;
}

export interface DeliveryAddressesTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  type: Schemas['DeliveryAddressType'];
  name: string;
  region: string;
  city: string;
  phone_number: string;
  address: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** What a notification is about: a domain object by name and id (seed "Entity reference"). */
export interface EntityReference { name: string; id: string }

export interface NotificationsTable {
  tenant_id: string;
  id: Generated<string>;
  /** The client or (with `staff_id`) the staff member it is for: exactly one. */
  client_id: string | null;
  staff_id: Optional<string>;
  entity: Json<EntityReference | null>;
  title: string;
  body: string;
  status: Generated<'read' | 'unread'>;
  read_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface VerificationCodesTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  channel: 'email' | 'phone';
  /** The email or phone number the code was sent to: verifying proves that one. */
  target: string;
  code_hash: string;
  expires_at: Date;
  attempts: Generated<number>;
  consumed_at: Date | null;
  created_at: CreatedAt;
}

/** A client's uploaded document: the bytes are in object storage under `storage_key`. */
export interface DocumentsTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  /** The sanitised original filename. */
  name: string;
  /** Detected from the bytes at upload, never taken from the client. */
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic';
  /** `bigint`: a decimal string out of both drivers. */
  size: ColumnType<string, string | number, string | number>;
  sha256: string;
  storage_key: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type PolicyState = Schemas['PolicyState'];

export interface TenantSequencesTable {
  tenant_id: string;
  name: string;
  last_value: ColumnType<string, string | number, string | number>;
}

export interface PoliciesTable {
  tenant_id: string;
  id: Generated<string>;
  policy_no: string;
  client_id: string;
  product_id: string;
  policy_type: string;
  state: PolicyState;
  coverage_type: string | null;
  cover_type: string | null;
  business_type: Schemas['BusinessType'];
  business_category: Schemas['BusinessCategory'];
  currency: string;
  exchange_rate: Numeric;
  premium: Numeric;
  sum_insured: ColumnType<string | null, string | number | null, string | number | null>;
  fleet_discount_rate: ColumnType<string | null, string | number | null, string | number | null>;
  premium_breakdown: Json<unknown>;
  start_date: PlainDate;
  end_date: PlainDate;
  generate_invoice: boolean;
  old_policy_id: string | null;
  notes: string | null;
  description: string | null;
  additional_information: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  group_id: string | null;
  created_by_staff_id: string | null;
  originating_staff_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface PolicyAssetsTable {
  tenant_id: string;
  id: Generated<string>;
  policy_id: string;
  position: number;
  details: Json<Record<string, unknown>>;
  sum_insured: ColumnType<string | null, string | number | null, string | number | null>;
  premium: Numeric;
}

export interface PolicyStateChangesTable {
  tenant_id: string;
  id: Generated<string>;
  policy_id: string;
  from_state: PolicyState | null;
  to_state: PolicyState;
  actor_kind: 'client' | 'staff' | 'system';
  actor_id: string | null;
  notes: string | null;
  created_at: CreatedAt;
  /** Insertion order: a policy's history is read in it (several changes can share `created_at`). */
  seq: Generated<string>;
}

/** A renewal reminder sent for a policy ending on `end_date`: one per policy and end date. */
export interface PolicyRenewalRemindersTable {
  tenant_id: string;
  id: Generated<string>;
  policy_id: string;
  end_date: PlainDate;
  created_at: CreatedAt;
}

export interface InvoicesTable {
  tenant_id: string;
  id: Generated<string>;
  invoice_no: string;
  /** The one policy it bills; null for a cart checkout's invoice (its items name the policies). */
  policy_id: string | null;
  client_id: string;
  currency: string;
  exchange_rate: Numeric;
  amount: Numeric;
  converted_amount: Numeric;
  description: string | null;
  invoice_date: PlainDate;
  created_by_staff_id: string | null;
  /** Set when the invoice is closed without being paid (its policy closed): nothing is left to pay. */
  voided_at: Optional<Date>;
  /** Why it was voided; set together with `voided_at`. */
  void_reason: Optional<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type TransactionStatus = Schemas['TransactionStatus'];

export interface TransactionsTable {
  tenant_id: string;
  id: Generated<string>;
  transaction_no: string;
  invoice_id: string;
  policy_id: string | null;
  client_id: string;
  payment_method: PaymentMethod;
  status: TransactionStatus;
  amount: Numeric;
  currency: string;
  exchange_rate: Numeric;
  converted_amount: Numeric;
  transaction_type: Schemas['TransactionType'] | null;
  date_received: PlainDate | null;
  payee: string | null;
  payment_institution: string | null;
  description: string | null;
  cheque_date: PlainDate | null;
  name_on_cheque: string | null;
  cheque_no: string | null;
  cheque_type: string | null;
  document_ids: ColumnType<string[], string | undefined, string>;
  provider: string | null;
  provider_reference: string | null;
  checkout_url: string | null;
  mobile_number: string | null;
  direct_debit_id: string | null;
  /** Who recorded the payment, when staff took it for the client. */
  created_by_staff_id: string | null;
  settled_at: Date | null;
  /** Who approved or rejected a payment waiting for staff, when, and their notes (a rejection's reason). */
  reviewed_by_staff_id: string | null;
  reviewed_at: Date | null;
  review_notes: string | null;
  /** The official receipt's number (RCT series), given once when the payment is confirmed. */
  receipt_no: string | null;
  receipt_issued_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type PaymentMethod = Schemas['PaymentMethod'];

export interface InvoiceItemsTable {
  tenant_id: string;
  id: Generated<string>;
  invoice_id: string;
  policy_id: string;
  amount: Numeric;
}

export interface TransactionStateChangesTable {
  tenant_id: string;
  id: Generated<string>;
  transaction_id: string;
  from_state: TransactionStatus | null;
  to_state: TransactionStatus;
  actor_kind: 'client' | 'staff' | 'system' | 'provider';
  actor_id: string | null;
  notes: string | null;
  created_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  client_id: string;
  operation: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: Json<unknown> | null;
  created_at: CreatedAt;
  expires_at: Date;
}

export interface PaymentEventsTable {
  tenant_id: string;
  provider: string;
  event_id: string;
  type: string;
  transaction_id: string | null;
  payload: Json<unknown>;
  outcome: string;
  received_at: CreatedAt;
}

export type PolicyClosureStatus = Schemas['PolicyClosureStatus'];

export interface PolicyClosuresTable {
  tenant_id: string;
  id: Generated<string>;
  policy_id: string;
  client_id: string;
  status: Generated<PolicyClosureStatus>;
  reason: string;
  effective_date: PlainDate;
  notes: string | null;
  document_ids: ColumnType<string[], string | undefined, string>;
  reviewed_by_staff_id: string | null;
  reviewed_at: Date | null;
  review_notes: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** An item of a client's cart: a policy create body kept as sent, its assets checked at checkout. */
export interface CartItemsTable {
  tenant_id: string;
  id: Generated<string>;
  client_id: string;
  policy_type: string;
  body: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type DirectDebitFrequency = Schemas['DirectDebitFrequency'];
export type DirectDebitStatus = Schemas['DirectDebitStatus'];

/** A client's direct debit mandate on a policy (server/domain/money/direct-debits.ts). */
export interface DirectDebitsTable {
  tenant_id: string;
  id: Generated<string>;
  policy_id: string;
  invoice_id: string;
  client_id: string;
  amount: Numeric;
  currency: string;
  frequency: DirectDebitFrequency;
  start_date: PlainDate;
  end_date: PlainDate | null;
  /** Due dates passed so far: the next one is start_date plus this many periods. */
  due_count: Generated<number>;
  /** Null unless ACTIVE. */
  next_debit_date: PlainDate | null;
  status: Generated<DirectDebitStatus>;
  payment_method: Generated<'MOBILE_MONEY'>;
  mobile_number: string;
  description: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | null;
  completed_at: Date | null;
  completion_reason: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** One due date of a mandate and what was debited on it; unique per (mandate, due date). */
export interface DirectDebitRunsTable {
  tenant_id: string;
  id: Generated<string>;
  direct_debit_id: string;
  due_date: PlainDate;
  outcome: 'RAISED' | 'SKIPPED';
  transaction_id: string | null;
  amount: Numeric;
  note: string | null;
  created_at: CreatedAt;
}

export type ClaimStatus = Schemas['ClaimStatus'];
export type ClaimStage = Schemas['ClaimStage'];
export type LossCategory = Schemas['LossCategory'];
export type MicroInsuranceClaimType = Schemas['MicroInsuranceClaimType'];
export type ThirdPartyLossType = Schemas['ThirdPartyLoss']['type'];
type NullableNumeric = ColumnType<string | null, string | number | null, string | number | null>;

/** A client's claim on its policy: standard (loss date, place, category) or micro-insurance (`claim_type`). */
export interface ClaimsTable {
  tenant_id: string;
  id: Generated<string>;
  claim_no: string;
  client_id: string;
  policy_id: string;
  status: ClaimStatus;
  stage: ClaimStage;
  claim_type: MicroInsuranceClaimType | null;
  loss_category: LossCategory | null;
  date_of_loss: PlainDate | null;
  date_of_notification: PlainDate;
  incident_location: string | null;
  description: string | null;
  estimated_loss_amount: Numeric;
  currency: string;
  exchange_rate: Numeric;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A policy asset a claim names. */
export interface ClaimAssetsTable {
  tenant_id: string;
  claim_id: string;
  policy_asset_id: string;
  position: number;
}

/** A third party's loss in a claim: its money in `amount`, the rest of what was sent in `details`. */
export interface ClaimThirdPartyLossesTable {
  tenant_id: string;
  id: Generated<string>;
  claim_id: string;
  position: number;
  type: ThirdPartyLossType;
  amount: NullableNumeric;
  details: Json<Record<string, unknown>>;
}

/** A supporting document of a claim. */
export interface ClaimDocumentsTable {
  tenant_id: string;
  claim_id: string;
  document_id: string;
  position: number;
}

/** Staff's review of a claim. */
export interface ClaimReviewsTable {
  tenant_id: string;
  id: Generated<string>;
  claim_id: string;
  inspection_notes: string | null;
  general_notes: string | null;
  adjusted_settlement_amount: NullableNumeric;
  created_by_staff_id: string;
  document_ids: ColumnType<string[], string | undefined, string>;
  created_at: CreatedAt;
}

/** A payment staff settle a claim with. */
export interface ClaimSettlementsTable {
  tenant_id: string;
  id: Generated<string>;
  claim_id: string;
  amount: Numeric;
  penalty_applicable: 'FEE' | 'PERCENTAGE' | null;
  /** The penalty: an amount for a FEE, a percent of the adjusted amount for a PERCENTAGE (migration 018; null on older rows). */
  penalty_value: NullableNumeric;
  contribution_applicable: Generated<boolean>;
  /** The client's contribution taken off, when `contribution_applicable` (migration 018; null on older rows). */
  contribution_amount: NullableNumeric;
  recipient: string;
  payment_date: PlainDate;
  payment_method: PaymentMethod;
  payment_method_info: string;
  created_by_staff_id: string;
  document_ids: ColumnType<string[], string | undefined, string>;
  created_at: CreatedAt;
}

/** A change of a claim's status or stage (its creation: `from_state` null). */
export interface ClaimStateChangesTable {
  tenant_id: string;
  id: Generated<string>;
  claim_id: string;
  field: 'status' | 'stage';
  from_state: string | null;
  to_state: string;
  actor_kind: 'client' | 'staff' | 'system';
  actor_id: string | null;
  notes: string | null;
  created_at: CreatedAt;
}

/** The job queue (server/platform/jobs/queue.ts): not a tenant table; a job's payload names its tenant when it has one. */
export interface JobsTable {
  id: Generated<string>;
  queue: string;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  dedupe_key: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  done_at: Date | null;
  failed_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BranchesTable {
  tenant_id: string;
  id: Generated<string>;
  name: string;
  address: string | null;
  description: string | null;
  created_by_staff_id: string | null;
  updated_by_staff_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DepartmentsTable {
  tenant_id: string;
  id: Generated<string>;
  branch_id: string;
  name: string;
  description: string | null;
  created_by_staff_id: string | null;
  updated_by_staff_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type StaffType = Schemas['StaffType'];
export type StaffPosition = Schemas['StaffPosition'];

export interface StaffTable {
  tenant_id: string;
  id: Generated<string>;
  email: string;
  phone_number: string | null;
  first_name: string;
  other_names: string | null;
  last_name: string;
  is_active: Generated<boolean>;
  type: Generated<StaffType>;
  job_title: string | null;
  position: StaffPosition;
  address: string | null;
  staff_no: string | null;
  gender: Schemas['Gender'] | null;
  date_of_birth: PlainDate | null;
  /** Null only for an executive manager. */
  department_id: string | null;
  password_hash: string | null;
  /** Bumped when the password changes or the staff member is deactivated: older tokens stop working. */
  session_version: Generated<number>;
  created_by_staff_id: string | null;
  /** Who last changed the row (null until a staff member does). */
  updated_by_staff_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface Database {
  companies: CompaniesTable;
  branches: BranchesTable;
  departments: DepartmentsTable;
  staff: StaffTable;
  api_keys: ApiKeysTable;
  clients: ClientsTable;
  revoked_tokens: RevokedTokensTable;
  password_reset_codes: PasswordResetCodesTable;
  outbox: OutboxTable;
  domain_events: DomainEventsTable;
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
}

export type CompanyRow = Selectable<CompaniesTable>;
export type StaffRow = Selectable<StaffTable>;
export type ClientRow = Selectable<ClientsTable>;
export type NewClient = Insertable<ClientsTable>;
export type ClientUpdate = Updateable<ClientsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type DocumentRow = Selectable<DocumentsTable>;

/** Tables whose rows belong to one tenant; every query on them goes through `scoped()`. */
export type TenantTable = 'api_keys' | 'clients' | 'revoked_tokens' | 'password_reset_codes' | 'outbox' | 'product_assignments'
  | 'delivery_addresses' | 'notifications' | 'verification_codes' | 'documents' | 'tenant_sequences' | 'policies'
  | 'policy_assets' | 'policy_state_changes' | 'policy_renewal_reminders' | 'invoices' | 'transactions' | 'policy_closures' | 'invoice_items'
  | 'transaction_state_changes' | 'idempotency_keys' | 'payment_events' | 'cart_items' | 'direct_debits' | 'direct_debit_runs'
  | 'claims' | 'claim_assets' | 'claim_third_party_losses' | 'claim_documents' | 'claim_reviews' | 'claim_settlements' | 'claim_state_changes'
  | 'branches' | 'departments' | 'staff' | 'domain_events';
