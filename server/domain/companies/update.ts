import { inTransaction } from '../../platform/tenancy.js';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import { columnsOf, companyById, companyConflict, type CompanyServices, type CompanyUpdate } from './rules.js';
import { toOperatorCompany, type OperatorCompany } from './view.js';

/** Changes the fields sent (a nullable one sent as null is cleared); 404 for no such company, 409 for a taken unique field. */
export async function updateCompany(services: CompanyServices, companyId: string, body: CompanyUpdate): Promise<OperatorCompany> {
  try {
    return await inTransaction(services.db, async (trx) => {
      await companyById(trx, companyId, { forUpdate: true });
      const row = await trx.updateTable('companies').set({ ...columnsOf(body), updated_at: services.clock.now() })
        .where('id', '=', companyId).returningAll().executeTakeFirstOrThrow();
      return toOperatorCompany(row);
    }).finally(() => services.credentials?.forget(credentialTag.tenant(companyId)));
  } catch (error) {
    throw companyConflict(error, body);
  }
}
