import { credentialTag } from '../../platform/auth/credential-cache.js';
import type { components } from '../../../generated/api.js';
import { notFound } from '../../platform/errors.js';
import { TenantScope, inTransaction } from '../../platform/tenancy.js';
import { staffQuery, toStaff, type Staff } from '../staff/view.js';
import { companyById, type CompanyServices } from './rules.js';

/**
 * The platform operator's way back for a company left with no one to manage it: one of its staff
 * members made an active EXECUTIVE_MANAGER again, with the reason kept beside what they were before
 * (`executive_manager_restorations`), in one transaction under the company's row lock.
 */
export async function restoreExecutiveManager(
  services: CompanyServices, companyId: string, body: components['schemas']['ExecutiveManagerRestore'],
): Promise<Staff> {
  const now = services.clock.now();
  try {
    return await inTransaction(services.db, async (trx) => {
      await companyById(trx, companyId, { forUpdate: true });
      const scope = new TenantScope(trx, companyId);
      const member = await scope.selectFrom('staff').select(['id', 'is_active', 'position'])
        .where('id', '=', body.staffId).forUpdate().executeTakeFirst();
      if (!member) throw notFound('Staff member');
      await scope.updateTable('staff').set({
        is_active: true, position: 'EXECUTIVE_MANAGER', updated_at: now,
        deactivated_by_staff_id: null, deactivated_by_position: null, deactivated_at: null,
      }).where('id', '=', member.id).execute();
      await scope.insertInto('executive_manager_restorations', {
        staff_id: member.id, reason: body.reason, was_active: member.is_active, was_position: member.position, created_at: now,
      }).execute();
      return toStaff(await staffQuery(scope).where('staff.id', '=', member.id).executeTakeFirstOrThrow());
    });
  } finally {
    services.credentials?.forget(credentialTag.staff(body.staffId));
  }
}
