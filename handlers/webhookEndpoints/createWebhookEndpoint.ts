import { createEndpoint } from '../../server/domain/integrations/webhook-endpoints.js';
import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** A new endpoint, with its signing secret shown this once. */
export const createWebhookEndpoint: Handler<'createWebhookEndpoint'> = async (ctx, req) => ({ data: await createEndpoint(ctx, staffId(ctx), req.body) });
