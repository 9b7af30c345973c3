import type { Handler } from '../../server/platform/handler-types.js';
import { createCompany as create } from '../../server/domain/companies/create.js';

/** Creates a company with its executive manager and first Api-Key (the platform operator's call). */
export const createCompany: Handler<'createCompany'> = async (ctx, req) => ({ data: await create(ctx, req.body) });
