/** Query-filter helpers shared by the lookup handlers. */

/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in `text` taken literally. */
export function containsPattern(text: string): string {
  // Backslash is PostgreSQL's default LIKE escape character.
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
