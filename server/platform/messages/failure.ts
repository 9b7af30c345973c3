/** Longest failure text kept on an outbox row: enough for the provider's own words, not a transcript. */
export const MAX_FAILURE_LENGTH = 500;

/** A provider's answer as one line of at most MAX_FAILURE_LENGTH characters, with the given secrets blanked. */
export function failureText(text: string, secrets: string[] = []): string {
  const clean = secrets.filter(Boolean).reduce((kept, secret) => kept.split(secret).join('***'), text);
  const line = clean.replace(/\s+/g, ' ').trim();
  return line.length > MAX_FAILURE_LENGTH ? `${line.slice(0, MAX_FAILURE_LENGTH - 1)}…` : line;
}
