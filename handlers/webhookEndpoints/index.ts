import { createWebhookEndpoint } from './createWebhookEndpoint.js';
import { deleteWebhookEndpoint } from './deleteWebhookEndpoint.js';
import { getWebhookEndpoint } from './getWebhookEndpoint.js';
import { listWebhookDeliveries } from './listWebhookDeliveries.js';
import { listWebhookEndpoints } from './listWebhookEndpoints.js';
import { retryWebhookDelivery } from './retryWebhookDelivery.js';
import { rotateWebhookEndpointSecret } from './rotateWebhookEndpointSecret.js';
import { sendWebhookTestEvent } from './sendWebhookTestEvent.js';
import { updateWebhookEndpoint } from './updateWebhookEndpoint.js';

export const webhookEndpointHandlers = {
  listWebhookEndpoints, createWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint,
  rotateWebhookEndpointSecret, sendWebhookTestEvent, listWebhookDeliveries, retryWebhookDelivery,
};
