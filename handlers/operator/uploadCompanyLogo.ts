import { ApiError } from '../../server/platform/errors.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { storeCompanyLogo } from '../../server/domain/companies/logo.js';

/** Stores a multipart `logo` part as the company's logo. */
export const uploadCompanyLogo: Handler<'uploadCompanyLogo'> = async (ctx, req) => {
  if (!req.parts) {
    const type = req.headers['content-type'] ?? '(none)';
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not accepted here: send multipart/form-data with one file part named logo`);
  }
  return { data: await storeCompanyLogo(ctx, req.params.companyId, req.parts) };
};
