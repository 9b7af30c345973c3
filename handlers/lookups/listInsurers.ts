import type { Handler } from '../../server/platform/handler-types.js';
import { insurers } from '../../server/domain/reference/lists.js';
import { insurerFromRow } from './mappers.js';

/** Insurers and micro-insurers on the platform (a platform-wide list, not tenant-owned), by name. */
export const listInsurers: Handler<'listInsurers'> = async (ctx, req) => ({ data: (await insurers(ctx.db, req.query)).map(insurerFromRow) });
