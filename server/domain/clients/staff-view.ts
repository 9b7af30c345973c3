import type { components } from '../../../generated/api.js';
import type { ClientRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffReferencesById } from '../staff/names.js';
import { toClientAccount } from './account.js';

export type StaffClient = components['schemas']['StaffClient'];

/**
 * Clients as staff see them: the client's profile, with the staff members who opened the account,
 * are credited with it and deactivated it named ({id, fullName, email}), read in one query.
 */
export async function toStaffClients(scope: TenantScope, rows: ClientRow[], now: Date): Promise<StaffClient[]> {
  const byId = await staffReferencesById(scope, rows.flatMap((row) => [row.created_by_staff_id, row.originating_staff_id, row.deactivated_by_staff_id]));
  const named = (id: string | null) => (id === null ? null : byId.get(id) ?? null);
  return rows.map((row) => {
    const { createdBy: _createdBy, originatingStaff: _originatingStaff, ...profile } = toClientAccount(row, now);
    const deactivatedBy = named(row.deactivated_by_staff_id);
    return {
      ...profile,
      createdBy: named(row.created_by_staff_id),
      originatingStaff: named(row.originating_staff_id),
      deactivation: row.deactivated_at && deactivatedBy
        ? { at: row.deactivated_at.toISOString(), by: deactivatedBy, reason: row.deactivation_reason ?? '' }
        : null,
    };
  });
}
