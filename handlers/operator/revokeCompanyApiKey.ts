import type { Handler } from '../../server/platform/handler-types.js';
import { revokeCompanyApiKey as revoke } from '../../server/domain/companies/api-keys.js';

/** Revokes one of the company's Api-Keys. */
export const revokeCompanyApiKey: Handler<'revokeCompanyApiKey'> = async (ctx, req) => {
  await revoke(ctx, req.params.companyId, req.params.apiKeyId);
  return { message: 'Api-Key revoked' };
};
