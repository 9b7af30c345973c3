import { updateEndpoint } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Changes an endpoint's URL, description, event types or whether it is enabled. */
export const updateWebhookEndpoint: Handler<'updateWebhookEndpoint'> = async (ctx, req) => ({ data: await updateEndpoint(ctx, req.params.endpointId, req.body) });
