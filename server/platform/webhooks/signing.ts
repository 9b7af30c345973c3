import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signatures per the Standard Webhooks specification (https://www.standardwebhooks.com), made by
 * its reference library so integrators can verify with any of its implementations.
 */

export type SignatureHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` and 32 random bytes in base64 (the spec accepts 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The three headers of one delivery. Each secret adds a `v1,<signature>` (space-separated), so
 * while a secret is rotated the old and the new one both sign and the receiver accepts either.
 * Throws when there is no secret or one is not a valid secret.
 */
export function signatureHeaders(message: { id: string; timestamp: Date; body: string; secrets: string[] }): SignatureHeaders {
  if (message.secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  const signatures = message.secrets.map((secret) => new Webhook(secret).sign(message.id, message.timestamp, message.body));
  return {
    'webhook-id': message.id,
    // Whole seconds, as the library signs them.
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
