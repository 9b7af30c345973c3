import { deleteEndpoint } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Removes an endpoint with its deliveries. */
export const deleteWebhookEndpoint: Handler<'deleteWebhookEndpoint'> = async (ctx, req) => { await deleteEndpoint(ctx, req.params.endpointId); };
