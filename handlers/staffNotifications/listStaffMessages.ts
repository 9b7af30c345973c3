import { staffId } from '../../server/platform/actor.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { STAFF } from '../../server/domain/accounts/account.js';
import { ownMessagePage } from '../../server/domain/accounts/message-view.js';

/** The e-mails and SMS sent to the signed-in staff member, newest first, codes masked. */
export const listStaffMessages: Handler<'listStaffMessages'> = async (ctx, req) =>
  ownMessagePage(ctx.scope, STAFF, staffId(ctx), pageOrCursor(req.query, req.sentQuery));
