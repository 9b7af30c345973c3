import type { Generated } from 'kysely';
import type { CreatedAt, Json, Optional, Timestamp } from './columns.js';

/** Products and their assignment to other companies. */

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
