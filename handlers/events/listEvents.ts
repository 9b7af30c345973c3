import { eventPage } from '../../server/domain/read-models/events.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of the company's events, newest first, filtered as asked. */
export const listEvents: Handler<'listEvents'> = async (ctx, req) =>
  eventPage(ctx.scope, pageOrCursor(req.query, req.sentQuery));
