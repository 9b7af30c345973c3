/** The unique constraint a failed insert or update broke, if that is why it failed (pg and PGlite alike). */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return undefined;
  return e.constraint ?? /constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
}

/** Whether a statement failed because a number did not fit its column (PostgreSQL 22003), pg and PGlite alike. */
export const numberOutOfRange = (error: unknown) => (error as { code?: string })?.code === '22003';
