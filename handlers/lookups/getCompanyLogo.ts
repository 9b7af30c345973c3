import type { Handler } from '../../server/platform/handler-types.js';
import { openCompanyLogo } from '../../server/domain/companies/logo.js';

/** A company's logo image (public branding: no credentials). */
export const getCompanyLogo: Handler<'getCompanyLogo'> = async (ctx, req) => openCompanyLogo(ctx, req.params.companyId);
