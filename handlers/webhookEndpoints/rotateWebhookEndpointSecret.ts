import { rotateSecret } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A new signing secret, shown this once; the previous one signs beside it for 24 hours. */
export const rotateWebhookEndpointSecret: Handler<'rotateWebhookEndpointSecret'> = async (ctx, req) => ({ data: await rotateSecret(ctx, req.params.endpointId) });
