import { retryEndpointDelivery } from '../../server/domain/integrations/webhook-endpoints.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** Sends a delivery again now. */
export const retryWebhookDelivery: Handler<'retryWebhookDelivery'> = async (ctx, req) =>
  ({ data: await retryEndpointDelivery(ctx, req.params.endpointId, req.params.deliveryId) });
