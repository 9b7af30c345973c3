import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';

/** Api-Keys are high-entropy random strings, so a plain SHA-256 is a safe way to store them. */
export const hashApiKey = hashOpaqueToken;

/** A new key: `sk_<mode>_` and 32 random bytes. */
export const newApiKey = (mode: 'sandbox' | 'production') => newOpaqueToken(`sk_${mode}_`);

/** What may be shown of a key after it is created. */
export const apiKeyPrefix = (key: string) => key.slice(0, 16);
