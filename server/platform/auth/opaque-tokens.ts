import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque bearer secrets the server makes (Api-Keys, refresh tokens): a prefix naming what the
 * secret is, then 32 random bytes (256 bits) in base64url. Being high-entropy random strings, a
 * plain SHA-256 is a safe way to store them: the database holds only the hash.
 */
export const newOpaqueToken = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** The SHA-256 (hex) an opaque token is stored and looked up by. */
export const hashOpaqueToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
