import type { Generated } from 'kysely';
import type { CreatedAt, Optional, PlainDate, Schemas, Timestamp } from './columns.js';

/** Staff members, branches and departments. */

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
  /** Who deactivated the member and their position then (null while active): only someone at or above it activates them again. */
  deactivated_by_staff_id: Optional<string>;
  deactivated_by_position: Optional<StaffPosition>;
  deactivated_at: Optional<Date>;
  /** When a spent refresh token of theirs was last presented again (recorded in the audit trail). */
  refresh_token_reused_at: Optional<Date>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** The platform operator's restorations of a company's executive manager, with the reason (for the company's audit). */
export interface ExecutiveManagerRestorationsTable {
  tenant_id: string;
  id: Generated<string>;
  staff_id: string;
  reason: string;
  /** The member as they were before: active or not, and their position. */
  was_active: boolean;
  was_position: StaffPosition;
  created_at: CreatedAt;
}
