import { clientId } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { listClientPolicies } from '../../server/domain/policies/list.js';

/**
 * The signed-in client's policies, newest first: a page (by number or after a cursor), every row
 * (`usePagination=false`), or an .xlsx export of either (`format=excel`, one row per policy or per asset).
 */
export const listPolicies: Handler<'listPolicies'> = async (ctx, req) => listClientPolicies(ctx, clientId(ctx), pageOrCursor(req.query, req.sentQuery));
