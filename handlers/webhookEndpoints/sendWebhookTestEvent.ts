import { sendTestEvent } from '../../server/domain/integrations/webhook-endpoints.js';
import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A test event delivered to this endpoint alone. */
export const sendWebhookTestEvent: Handler<'sendWebhookTestEvent'> = async (ctx, req) => ({ data: await sendTestEvent(ctx, staffId(ctx), req.params.endpointId) });
