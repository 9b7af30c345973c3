import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, NullableNumeric, Numeric, PlainDate, Schemas, Timestamp } from './columns.js';
import type { PaymentMethod } from './money.js';

/** Claims, their assets, third-party losses, documents, reviews, settlements and states. */

export type ClaimStatus = Schemas['ClaimStatus'];

export type ClaimStage = Schemas['ClaimStage'];

export type LossCategory = Schemas['LossCategory'];

export type MicroInsuranceClaimType = Schemas['MicroInsuranceClaimType'];

export type ThirdPartyLossType = Schemas['ThirdPartyLoss']['type'];

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

/** A company's own claim settlement limits by position (money as text, absent = the default) and four-eyes threshold (null = the default). */
export interface SettlementControlsTable {
  tenant_id: string;
  limits: Json<Partial<Record<'LEVEL_OFFICER' | 'HEAD_OF_DEPARTMENT' | 'BRANCH_MANAGER' | 'EXECUTIVE_MANAGER', string | null>>>;
  four_eyes_threshold: NullableNumeric;
  /** Why the figures last changed, as the executive manager gave it. */
  reason: string | null;
  updated_by_staff_id: string | null;
  updated_at: Timestamp;
}
