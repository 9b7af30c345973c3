import { receiveWebhook } from '../../server/domain/money/webhooks.js';
import type { Handler } from '../../server/platform/handler-types.js';

/**
 * A payment provider's event. Its signature was checked over the raw body before the body was
 * validated (the `webhookSignature` security of the contract); here it is recorded once and
 * settles the payment it names.
 */
export const receivePaymentWebhook: Handler<'receivePaymentWebhook'> = async (ctx, req) => receiveWebhook(ctx, req.params.provider, req.body);
