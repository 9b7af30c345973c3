import { createHmac, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '../errors.js';

/**
 * Webhook signatures as payment APIs make them: `t=<unix seconds>,v1=<hex>`, where `v1` is the
 * HMAC-SHA256 of `<t>.<raw body>` keyed with the shared secret. Signing the timestamp with the
 * body lets the receiver refuse a captured request replayed later.
 */

/** How far a signature's timestamp may be from the receiver's clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const hmac = (secret: string, timestamp: number, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/** The signature header's value for a body sent at `at`. */
export function signatureHeader(secret: string, body: Buffer | string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body).toString('hex')}`;
}

/**
 * Checks a signature header against the raw body, then its timestamp against the clock; throws a
 * 401 naming what is wrong.
 * Several `v1` entries may be sent (while a secret is rotated): one must match. Comparisons are
 * constant-time.
 */
export function verifySignatureHeader(secret: string, header: string | string[] | undefined, body: Buffer, now: Date,
  name = 'Coverline-Signature'): void {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw unauthorized(`The ${name} header is required`, 'MISSING_SIGNATURE');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const [key, item = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(item)) timestamp = Number(item);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(item)) signatures.push(Buffer.from(item, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw unauthorized(`The ${name} header must be t=<unix seconds>,v1=<hex HMAC-SHA256>`, 'INVALID_SIGNATURE');
  }
  const expected = hmac(secret, timestamp, body);
  if (!signatures.some((signature) => timingSafeEqual(signature, expected))) {
    throw unauthorized(`The ${name} does not match the body`, 'INVALID_SIGNATURE');
  }
  // Authentic, but maybe captured and replayed: the timestamp is signed too.
  const drift = Math.round(Math.abs(now.getTime() / 1000 - timestamp));
  if (drift > SIGNATURE_TOLERANCE_SECONDS) {
    throw unauthorized(`The ${name} timestamp is ${drift} seconds from now; at most ${SIGNATURE_TOLERANCE_SECONDS} are allowed`, 'SIGNATURE_EXPIRED');
  }
}
