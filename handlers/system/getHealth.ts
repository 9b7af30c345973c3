import { sql } from 'kysely';
import { ApiError } from '../../server/platform/errors.js';
import { apiVersion } from '../../server/platform/openapi.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Answers ok when the database answers a trivial query. */
export const getHealth: Handler<'getHealth'> = async (ctx) => {
  try {
    await sql`select 1`.execute(ctx.db);
  } catch {
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable');
  }
  return { status: 'ok', database: 'ok', version: apiVersion() };
};
