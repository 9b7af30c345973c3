import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, Numeric, Optional, PlainDate, Schemas, Timestamp } from './columns.js';

/** Invoices, payments (the API's transactions) and their states, provider events, direct debit mandates and their runs. */

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
  /**
   * Where the payer acts while the payment waits for them: an ONLINE payment's hosted checkout, a
   * MOBILE_MONEY payment's prompt page when the provider has one (the sandbox's); cleared once settled.
   */
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
  /** The staff member who cancelled it for the client; null when the client or the system did. */
  cancelled_by_staff_id: ColumnType<string | null, string | null | undefined, string | null>;
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
