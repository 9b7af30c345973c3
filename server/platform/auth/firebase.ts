import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

export interface FirebaseIdentity {
  uid: string;
  email?: string;
  emailVerified: boolean;
  phoneNumber?: string;
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * Verifies a Firebase ID token as Firebase documents it: RS256, signed by a key from the JWKS,
 * issued by `https://securetoken.google.com/<projectId>` for audience `<projectId>`, not expired,
 * with a subject. The JWKS is fetched once and cached (jose refreshes it when keys rotate).
 */
export async function verifyFirebaseToken(token: string, projectId: string, jwksUrl: string): Promise<FirebaseIdentity | null> {
  let keys = keySets.get(jwksUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
    keySets.set(jwksUrl, keys);
  }
  let payload: JWTPayload & { email?: string; email_verified?: boolean; phone_number?: string };
  try {
    ({ payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256'],
      issuer: `https://securetoken.google.com/${projectId}`,
      audience: projectId,
    }));
  } catch {
    return null;
  }
  if (!payload.sub) return null;
  return {
    uid: payload.sub,
    email: payload.email,
    emailVerified: payload.email_verified === true,
    phoneNumber: payload.phone_number,
  };
}
