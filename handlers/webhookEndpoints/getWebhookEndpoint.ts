import { getEndpoint } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One of the company's webhook endpoints. */
export const getWebhookEndpoint: Handler<'getWebhookEndpoint'> = async (ctx, req) => ({ data: await getEndpoint(ctx, req.params.endpointId) });
