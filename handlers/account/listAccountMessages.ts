import { clientId } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { CLIENT } from '../../server/domain/accounts/account.js';
import { ownMessagePage } from '../../server/domain/accounts/message-view.js';

/** The e-mails and SMS sent to the signed-in client, newest first, codes masked. */
export const listAccountMessages: Handler<'listAccountMessages'> = async (ctx, req) =>
  ownMessagePage(ctx.scope, CLIENT, clientId(ctx), pageOrCursor(req.query, req.sentQuery));
