import { sql, type RawBuilder } from 'kysely';
import type { StaffActor } from '../../platform/context.js';

/** Who is reaching: the staff member, their company, their reach and where they sit. */
export type Reacher = Pick<StaffActor, 'staffId' | 'tenantId' | 'reach' | 'departmentId' | 'branchId'>;

/**
 * What a staff member's reach (from the permission table) lets them see, as SQL conditions over
 * the column that names a row's originating staff member (`clients.originating_staff_id`,
 * `policies.originating_staff_id`, `staff.id` ...). One definition serves every list and every
 * lookup by id, so a row out of reach is absent from lists and answers 404 by id.
 *
 * - `OWN`: rows the staff member originated.
 * - `DEPARTMENT`: rows originated by anyone in their department, and rows nobody originated
 *   (clients who signed up on their own are the company's).
 * - `BRANCH`: the same over every department of their branch.
 * - `TENANT`: every row of the company.
 */
export function originatedInReach(column: string, actor: Reacher): RawBuilder<boolean> {
  const originator = staffInReach(column, actor);
  // Department and branch reaches take in the company's own clients too (nobody originated them).
  if (actor.reach === 'DEPARTMENT' || actor.reach === 'BRANCH') return sql<boolean>`(${sql.ref(column)} is null or ${originator})`;
  return originator;
}

/**
 * Whether a staff member (by the column naming their id) is within the caller's reach as an
 * organisation: themselves, their department, their branch, or anyone in the company. An executive
 * manager with no department is in every `TENANT` reach and in no narrower one but their own.
 */
export function staffInReach(column: string, actor: Reacher): RawBuilder<boolean> {
  const member = sql.ref(column);
  switch (actor.reach) {
    case 'TENANT':
      return sql<boolean>`true`;
    case 'OWN':
      return sql<boolean>`${member} = ${actor.staffId}`;
    case 'DEPARTMENT':
      return sql<boolean>`${member} in (${staffOfDepartment(actor)})`;
    case 'BRANCH':
      return sql<boolean>`${member} in (${staffOfBranch(actor)})`;
  }
}

// Each subquery names the caller's company itself: it holds whatever outer query it is put in.
const staffOfDepartment = (actor: Reacher) =>
  sql`select s.id from staff s where s.tenant_id = ${actor.tenantId} and s.department_id = ${actor.departmentId}`;
const staffOfBranch = (actor: Reacher) =>
  sql`select s.id from staff s join departments d on d.id = s.department_id and d.tenant_id = s.tenant_id where s.tenant_id = ${actor.tenantId} and d.branch_id = ${actor.branchId}`;

/**
 * Whether the client named by `clientColumn` is within the caller's reach: what a staff list of
 * rows that belong to a client (invoices, payments, claims) filters by.
 */
export function clientInReach(clientColumn: string, actor: Reacher): RawBuilder<boolean> {
  if (actor.reach === 'TENANT') return sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from clients c where c.tenant_id = ${actor.tenantId} and c.id = ${sql.ref(clientColumn)} and ${originatedInReach('c.originating_staff_id', actor)})`;
}
