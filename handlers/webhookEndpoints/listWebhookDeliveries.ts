import { listDeliveries } from '../../server/domain/integrations/webhook-endpoints.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of an endpoint's deliveries, each with its attempts. */
export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async (ctx, req) =>
  listDeliveries(ctx, req.params.endpointId, pageOrCursor(req.query, req.sentQuery));
