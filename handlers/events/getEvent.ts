import { eventById } from '../../server/domain/read-models/events.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One of the company's events (404 for another company's or an internal one). */
export const getEvent: Handler<'getEvent'> = async (ctx, req) => ({ data: await eventById(ctx.scope, req.params.id) });
