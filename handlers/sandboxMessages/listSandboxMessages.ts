import { sandboxMessagePage } from '../../server/domain/accounts/message-view.js';
import { routeNotFound } from '../../server/platform/errors.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { API_PREFIX } from '../../server/platform/openapi.js';

/**
 * The tenant's sandbox mailbox, nothing masked. Only for a sandbox Api-Key on a server not in
 * production (where the route is not even registered, server/app/routes.ts): any other caller
 * gets the answer of a path the API does not have.
 */
export const listSandboxMessages: Handler<'listSandboxMessages'> = async (ctx, req) => {
  if (ctx.config.production || ctx.tenant.apiKeyMode !== 'sandbox') throw routeNotFound('GET', `${API_PREFIX}/sandbox/messages`);
  return sandboxMessagePage(ctx.scope, pageOrCursor(req.query, req.sentQuery));
};
