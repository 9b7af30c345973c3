import { sql, type RawBuilder } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { StaffCaller } from '../../platform/actor.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import { ApiError, conflict, notFound } from '../../platform/errors.js';
import { pageOf } from '../../platform/pagination.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { toBranch, toDepartment, type Branch, type Department } from './view.js';

/**
 * The company's organisation: branches and their departments. Who may call what is the permission
 * table; what each caller reaches is decided here from the reach it gave them, so a row out of
 * reach is absent from lists and answers 404 by id, as another company's does:
 *
 * - branches: `TENANT` every branch; any narrower reach the caller's own branch.
 * - departments: `TENANT` every department; `BRANCH` those of the caller's branch; `DEPARTMENT`
 *   (and `OWN`) the caller's own department.
 *
 * A branch manager (reach `BRANCH`) opens and changes departments of their own branch only.
 */

type Schemas = components['schemas'];
type Paging = { page?: number; limit?: number };

/** A referenced row (in the body) that does not exist or is out of the caller's reach. */
const notFoundIn = (what: string, field: string) => new ApiError(404, 'NOT_FOUND', `${what} not found (${field})`);

/** A foreign key still pointing at the row being deleted (pg and PGlite alike). */
const isForeignKeyViolation = (error: unknown) => (error as { code?: string })?.code === '23503';

function branchInReach(by: StaffCaller): RawBuilder<boolean> {
  return by.reach === 'TENANT' ? sql<boolean>`true` : sql<boolean>`${sql.ref('branches.id')} = ${by.branchId}`;
}

function departmentInReach(by: StaffCaller): RawBuilder<boolean> {
  const department = sql.ref('departments.id');
  switch (by.reach) {
    case 'TENANT': return sql<boolean>`true`;
    case 'BRANCH': return sql<boolean>`${sql.ref('departments.branch_id')} = ${by.branchId}`;
    default: return sql<boolean>`${department} = ${by.departmentId}`;
  }
}

const pageAndLimit = (query: Paging) => ({ page: query.page ?? 1, limit: query.limit ?? 100 });

// ---- branches -------------------------------------------------------------------------------

const branchNameTaken = () => conflict('body.name is already the name of another branch', 'BRANCH_NAME_TAKEN');

/** One page of the branches the caller reaches, by name. */
export async function branchPage(scope: TenantScope, by: StaffCaller, query: Paging) {
  const { page, limit } = pageAndLimit(query);
  const theirs = scope.selectFrom('branches').where(branchInReach(by));
  const { offset, paginator } = await pageOf(theirs, page, limit);
  const rows = await theirs.selectAll().orderBy('name').orderBy('id').limit(limit).offset(offset).execute();
  return { data: rows.map(toBranch), paginator };
}

async function branchRow(scope: TenantScope, by: StaffCaller, id: string) {
  const row = await scope.selectFrom('branches').selectAll().where('id', '=', id).where(branchInReach(by)).executeTakeFirst();
  if (!row) throw notFound('Branch');
  return row;
}

/** A branch the caller reaches; any other is not found. */
export async function findBranch(scope: TenantScope, by: StaffCaller, id: string): Promise<Branch> {
  return toBranch(await branchRow(scope, by, id));
}

/** Opens a branch; its name is unique within the company in any case. */
export async function createBranch(scope: TenantScope, by: StaffCaller, body: Schemas['BranchInput'], now: Date): Promise<Branch> {
  try {
    const row = await scope.insertInto('branches', {
      name: body.name, address: body.address ?? null, description: body.description ?? null,
      created_by_staff_id: by.staffId, updated_by_staff_id: by.staffId, created_at: now, updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    return toBranch(row);
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'branches_tenant_name_key') throw branchNameTaken();
    throw error;
  }
}

/** Changes a branch the caller reaches; fields left out stay, nullable ones sent as null are cleared. */
export async function updateBranch(scope: TenantScope, by: StaffCaller, id: string, body: Schemas['BranchUpdate'], now: Date): Promise<Branch> {
  await branchRow(scope, by, id);
  try {
    const row = await scope.updateTable('branches')
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.address !== undefined && { address: body.address }),
        ...(body.description !== undefined && { description: body.description }),
        updated_by_staff_id: by.staffId, updated_at: now,
      })
      .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return toBranch(row);
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'branches_tenant_name_key') throw branchNameTaken();
    throw error;
  }
}

const branchInUse = () => conflict('The branch still has departments; move or delete them first', 'BRANCH_IN_USE');

/** Deletes a branch the caller reaches, refused while it has departments. */
export async function deleteBranch(scope: TenantScope, by: StaffCaller, id: string): Promise<void> {
  await branchRow(scope, by, id);
  const used = await scope.selectFrom('departments').select('id').where('branch_id', '=', id).limit(1).executeTakeFirst();
  if (used) throw branchInUse();
  try {
    await scope.deleteFrom('branches').where('id', '=', id).execute();
  } catch (error) {
    // A department opened in it meanwhile.
    if (isForeignKeyViolation(error)) throw branchInUse();
    throw error;
  }
}

// ---- departments ----------------------------------------------------------------------------

/** Departments joined to their branch, nothing selected yet. */
const departmentTables = (scope: TenantScope) =>
  scope.selectFrom('departments').innerJoin('branches', 'branches.id', 'departments.branch_id');

const departmentQuery = (scope: TenantScope) => departmentTables(scope).select([
  'departments.id', 'departments.branch_id', 'departments.name', 'departments.description',
  'departments.created_at', 'departments.updated_at',
  'branches.name as branch_name', 'branches.address as branch_address', 'branches.description as branch_description',
  'branches.created_at as branch_created_at', 'branches.updated_at as branch_updated_at',
]);

type DepartmentViewRow = Awaited<ReturnType<ReturnType<typeof departmentQuery>['executeTakeFirstOrThrow']>>;

const toDepartmentView = (row: DepartmentViewRow): Department => toDepartment(row, {
  id: row.branch_id, name: row.branch_name, address: row.branch_address, description: row.branch_description,
  created_at: row.branch_created_at, updated_at: row.branch_updated_at,
});

const departmentNameTaken = () => conflict('body.name is already the name of another department of this branch', 'DEPARTMENT_NAME_TAKEN');

/** One page of the departments the caller reaches (of one branch if asked), by branch and name. */
export async function departmentPage(scope: TenantScope, by: StaffCaller, query: Paging & { branchId?: string }) {
  const { page, limit } = pageAndLimit(query);
  const ofBranch = query.branchId;
  const counted = departmentTables(scope).where(departmentInReach(by))
    .$if(ofBranch !== undefined, (q) => q.where('departments.branch_id', '=', ofBranch!));
  const { offset, paginator } = await pageOf(counted, page, limit);
  const rows = await departmentQuery(scope).where(departmentInReach(by))
    .$if(ofBranch !== undefined, (q) => q.where('departments.branch_id', '=', ofBranch!))
    .orderBy('branches.name').orderBy('departments.name').orderBy('departments.id')
    .limit(limit).offset(offset).execute();
  return { data: rows.map(toDepartmentView), paginator };
}

async function departmentRow(scope: TenantScope, by: StaffCaller, id: string, field?: string) {
  const row = await departmentQuery(scope).where('departments.id', '=', id).where(departmentInReach(by)).executeTakeFirst();
  if (!row) throw field ? notFoundIn('Department', field) : notFound('Department');
  return row;
}

/** A department the caller reaches; any other is not found. */
export async function findDepartment(scope: TenantScope, by: StaffCaller, id: string): Promise<Department> {
  return toDepartmentView(await departmentRow(scope, by, id));
}

/**
 * The department `departmentId` names in a body, if the caller may put staff in it: an executive
 * manager any of the company's, a branch manager those of their branch. Otherwise not found,
 * naming the field.
 */
export async function departmentForStaff(scope: TenantScope, by: StaffCaller, departmentId: string, field = 'body.departmentId') {
  return departmentRow(scope, by.reach === 'TENANT' ? by : { ...by, reach: 'BRANCH' }, departmentId, field);
}

/** The branch a body names, if the caller may put departments in it. */
async function branchForDepartment(scope: TenantScope, by: StaffCaller, branchId: string) {
  const row = await scope.selectFrom('branches').select('id').where('id', '=', branchId).where(branchInReach(by)).executeTakeFirst();
  if (!row) throw notFoundIn('Branch', 'body.branchId');
}

/** Opens a department in a branch the caller reaches; its name is unique within its branch. */
export async function createDepartment(scope: TenantScope, by: StaffCaller, body: Schemas['DepartmentInput'], now: Date): Promise<Department> {
  await branchForDepartment(scope, by, body.branchId);
  try {
    const { id } = await scope.insertInto('departments', {
      branch_id: body.branchId, name: body.name, description: body.description ?? null,
      created_by_staff_id: by.staffId, updated_by_staff_id: by.staffId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    return findDepartment(scope, by, id);
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'departments_branch_name_key') throw departmentNameTaken();
    throw error;
  }
}

/** Changes a department the caller reaches (moving it only to a branch they reach); its staff move with it. */
export async function updateDepartment(
  scope: TenantScope, by: StaffCaller, id: string, body: Schemas['DepartmentUpdate'], now: Date,
): Promise<Department> {
  await departmentRow(scope, by, id);
  if (body.branchId !== undefined) await branchForDepartment(scope, by, body.branchId);
  try {
    await scope.updateTable('departments')
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.branchId !== undefined && { branch_id: body.branchId }),
        updated_by_staff_id: by.staffId, updated_at: now,
      })
      .where('id', '=', id).execute();
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'departments_branch_name_key') throw departmentNameTaken();
    throw error;
  }
  return toDepartmentView(await departmentQuery(scope).where('departments.id', '=', id).executeTakeFirstOrThrow());
}

const departmentInUse = () => conflict('The department still has staff members; move them first', 'DEPARTMENT_IN_USE');

/** Deletes a department the caller reaches, refused while staff members (active or not) belong to it. */
export async function deleteDepartment(scope: TenantScope, by: StaffCaller, id: string): Promise<void> {
  await departmentRow(scope, by, id);
  const used = await scope.selectFrom('staff').select('id').where('department_id', '=', id).limit(1).executeTakeFirst();
  if (used) throw departmentInUse();
  try {
    await scope.deleteFrom('departments').where('id', '=', id).execute();
  } catch (error) {
    // A staff member put in it meanwhile.
    if (isForeignKeyViolation(error)) throw departmentInUse();
    throw error;
  }
}
