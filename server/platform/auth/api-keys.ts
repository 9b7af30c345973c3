import { createHash, randomBytes } from 'node:crypto';

/** Api-Keys are high-entropy random strings, so a plain SHA-256 is a safe way to store them. */
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new key: `sk_<mode>_` and 32 random bytes. */
export const newApiKey = (mode: 'sandbox' | 'production') => `sk_${mode}_${randomBytes(32).toString('base64url')}`;

/** What may be shown of a key after it is created. */
export const apiKeyPrefix = (key: string) => key.slice(0, 16);
