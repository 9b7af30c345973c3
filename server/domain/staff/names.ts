import { sql, type RawBuilder } from 'kysely';
import type { components } from '../../../generated/api.js';
import { containsPattern } from '../../platform/filters.js';
import type { TenantScope } from '../../platform/tenancy.js';

/** A staff member's full name: first, other and last names. */
export function staffFullName(row: { first_name: string; other_names: string | null; last_name: string }): string {
  return [row.first_name, row.other_names, row.last_name].filter(Boolean).join(' ');
}

/** The same full name in SQL, over the columns of a staff table aliased `alias`; what a staffName filter matches. */
export function staffFullNameSql(alias: string): RawBuilder<string> {
  return sql<string>`concat_ws(' ', ${sql.ref(`${alias}.first_name`)}, ${sql.ref(`${alias}.other_names`)}, ${sql.ref(`${alias}.last_name`)})`;
}

/**
 * Whether the staff member whose id is in `column` has a full name containing `text`
 * (case-insensitive); the staff looked at are those of the company in `tenantColumn`.
 */
export function staffNamed(column: string, tenantColumn: string, text: string): RawBuilder<boolean> {
  return staffNameLike(column, tenantColumn, containsPattern(text));
}

/** `staffNamed` with the ILIKE pattern already made (`containsPattern`): a value a compiled query takes. */
export function staffNameLike(column: string, tenantColumn: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} in (select s.id from staff s where s.tenant_id = ${sql.ref(tenantColumn)} and ${staffFullNameSql('s')} ilike ${pattern})`;
}

export type StaffReference = components['schemas']['StaffReference'];

/** A staff member as another object names them: who created or sold a policy, who brought a client in. */
export function staffReference(member: { id: string; first_name: string; other_names: string | null; last_name: string; email: string }): StaffReference {
  return { name: 'staff', id: member.id, fullName: staffFullName(member), email: member.email };
}

/** The staff members of these ids as StaffReferences, by id, read in one query (ids of no staff member are absent). */
export async function staffReferences(scope: TenantScope, ids: readonly (string | null)[]): Promise<Map<string, StaffReference>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const staff = wanted.length === 0 ? [] : await scope.selectFrom('staff')
    .select(['id', 'first_name', 'other_names', 'last_name', 'email']).where('id', 'in', wanted).execute();
  return new Map(staff.map((member) => [member.id, staffReference(member)]));
}
