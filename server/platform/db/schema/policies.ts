import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, Numeric, PlainDate, Schemas, Timestamp } from './columns.js';

/** Policies, their assets, states, renewal reminders, closure requests, and cart items (policy bodies kept for checkout). */

export type PolicyState = Schemas['PolicyState'];

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
  /** The staff member who asked for it for the client; null when the client did. */
  requested_by_staff_id: ColumnType<string | null, string | null | undefined, string | null>;
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
