import { clientId } from '../../server/platform/actor.js';
import { listClientDirectDebits } from '../../server/domain/money/direct-debit-view.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of the signed-in client's mandates, newest first, filtered by policy when asked. */
export const listDirectDebits: Handler<'listDirectDebits'> = async (ctx, req) => listClientDirectDebits(ctx.scope, clientId(ctx), pageOrCursor(req.query, req.sentQuery));
