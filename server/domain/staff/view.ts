import type { InferResult, Selectable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { BranchesTable, DepartmentsTable } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffFullName } from './names.js';
import { latestNotifications } from '../accounts/notification-view.js';

type Schemas = components['schemas'];
export type Staff = Schemas['Staff'];
export type Branch = Schemas['Branch'];
export type Department = Schemas['Department'];
export type StaffProfile = Schemas['StaffProfile'];

const iso = (at: Date | string) => new Date(at).toISOString();

type BranchRow = Pick<Selectable<BranchesTable>, 'id' | 'name' | 'address' | 'description' | 'created_at' | 'updated_at'>;
type DepartmentRow = Pick<Selectable<DepartmentsTable>, 'id' | 'branch_id' | 'name' | 'description' | 'created_at' | 'updated_at'>;

/** Row -> a branch as the API shows it. */
export function toBranch(row: BranchRow): Branch {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    name: row.name,
    address: row.address,
    description: row.description,
  };
}

/** Row -> a department as the API shows it, with its branch. */
export function toDepartment(row: DepartmentRow, branch: BranchRow): Department {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    name: row.name,
    description: row.description,
    branchId: row.branch_id,
    branch: toBranch(branch),
  };
}

/**
 * Staff members with the department they work in and its branch, in one query (never the password
 * hash). An executive manager has no department: its columns come back null.
 */
export function staffQuery(scope: TenantScope) {
  return staffTables(scope).select([
      'staff.tenant_id', 'staff.id', 'staff.created_at', 'staff.updated_at', 'staff.email', 'staff.phone_number',
      'staff.first_name', 'staff.other_names', 'staff.last_name', 'staff.is_active', 'staff.type', 'staff.job_title',
      'staff.position', 'staff.address', 'staff.staff_no', 'staff.gender', 'staff.date_of_birth', 'staff.department_id',
      'departments.name as department_name', 'departments.description as department_description',
      'departments.branch_id as department_branch_id', 'departments.created_at as department_created_at',
      'departments.updated_at as department_updated_at',
      'branches.name as branch_name', 'branches.address as branch_address', 'branches.description as branch_description',
      'branches.created_at as branch_created_at', 'branches.updated_at as branch_updated_at',
    ]);
}

/** Staff members joined to their department and its branch, nothing selected yet (for counting a filtered list). */
export function staffTables(scope: TenantScope) {
  return scope.selectFrom('staff')
    .leftJoin('departments', 'departments.id', 'staff.department_id')
    .leftJoin('branches', 'branches.id', 'departments.branch_id');
}

export type StaffViewRow = InferResult<ReturnType<typeof staffQuery>>[number];

/** The department (with its branch) of a row of `staffQuery`, or null for an executive manager. */
function departmentOf(row: StaffViewRow): Department | null {
  if (row.department_id === null || row.department_branch_id === null) return null;
  const branch = {
    id: row.department_branch_id, name: row.branch_name!, address: row.branch_address,
    description: row.branch_description, created_at: row.branch_created_at!, updated_at: row.branch_updated_at!,
  };
  return toDepartment({
    id: row.department_id, branch_id: row.department_branch_id, name: row.department_name!,
    description: row.department_description, created_at: row.department_created_at!, updated_at: row.department_updated_at!,
  }, branch);
}

/** A row of `staffQuery` -> the staff member as the API shows them. */
export function toStaff(row: StaffViewRow): Staff {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    email: row.email,
    phoneNumber: row.phone_number,
    firstName: row.first_name,
    otherNames: row.other_names,
    lastName: row.last_name,
    fullName: staffFullName(row),
    isActive: row.is_active,
    type: row.type,
    jobTitle: row.job_title,
    position: row.position,
    address: row.address,
    staffNo: row.staff_no,
    gender: row.gender,
    dateOfBirth: row.date_of_birth,
    department: departmentOf(row),
  };
}

/** The staff member with their department and branch, their 10 newest notifications and how many are unread. */
export async function staffProfile(scope: TenantScope, staffId: string): Promise<StaffProfile> {
  const [row, inbox] = await Promise.all([
    staffQuery(scope).where('staff.id', '=', staffId).executeTakeFirstOrThrow(),
    latestNotifications(scope, 'staff_id', staffId),
  ]);
  return { ...toStaff(row), ...inbox };
}
