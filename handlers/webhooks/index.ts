import { receivePaymentWebhook } from './receivePaymentWebhook.js';

export const webhookHandlers = { receivePaymentWebhook };
