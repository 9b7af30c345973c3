import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens.js';

/** What every refresh token starts with, so one is told from an access token or an Api-Key at a glance (and by secret scanners). */
export const REFRESH_TOKEN_PREFIX = 'rt_';

/** A new refresh token: `rt_` and 32 random bytes, base64url. Shown once, to the caller; stored as its hash. */
export const newRefreshToken = () => newOpaqueToken(REFRESH_TOKEN_PREFIX);

/** The SHA-256 (hex) a refresh token is stored and looked up by. */
export const hashRefreshToken = hashOpaqueToken;
