import { listEndpoints } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of the company's webhook endpoints, newest first, without their secrets. */
export const listWebhookEndpoints: Handler<'listWebhookEndpoints'> = async (ctx, req) => listEndpoints(ctx, req.query);
