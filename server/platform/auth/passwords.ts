import argon2 from 'argon2';

// OWASP's argon2id baseline: 19 MiB of memory, 2 passes, 1 lane.
/** OWASP's argon2id parameters (19 MiB, 2 passes, 1 lane): every password hash and check. */
export const PASSWORD_HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id; the result carries its own salt and parameters. */
export const hashPassword = (password: string) => argon2.hash(password, PASSWORD_HASH_OPTIONS);

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (no such account) it still does the work
 * of one check, so timing does not tell whether an account exists.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('coverline-timing-equaliser');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
