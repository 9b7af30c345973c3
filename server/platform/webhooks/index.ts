export { newWebhookSecret, signatureHeaders, type SignatureHeaders } from './signing.js';
export { AddressRefusedError, checkEndpointUrl, isPublicAddress, resolvePublicAddress, type AddressPolicy } from './address-policy.js';
export { sendWebhook, type WebhookAttempt, type WebhookRequest } from './send.js';
