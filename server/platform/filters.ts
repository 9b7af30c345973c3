import { isValid, parse } from 'date-fns';
import { sql } from 'kysely';
import { badRequest } from './errors.js';

/** Query-filter helpers shared by the list handlers. */

/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in `text` taken literally. */
export function containsPattern(text: string): string {
  // Backslash is PostgreSQL's default LIKE escape character.
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `YYYY-MM-DD` or day-month-year `DD-MM-YYYY` (the seed's filter form) -> `YYYY-MM-DD`, or 400 naming the parameter. */
export function isoDate(value: string, where: string): string {
  const parsed = /^\d{4}-/.test(value) ? parse(value, 'yyyy-MM-dd', new Date(0)) : parse(value, 'dd-MM-yyyy', new Date(0));
  if (!isValid(parsed)) throw badRequest(`${where} is not a real date: ${value}`);
  return `${parsed.getFullYear()}-${String(parsed.getMonth() + 1).padStart(2, '0')}-${String(parsed.getDate()).padStart(2, '0')}`;
}

/**
 * The list filters `createdFrom` and `createdTo` (UTC days, both included) as one condition on the
 * timestamp `column`; a 400 naming the parameter for a day that does not exist.
 */
export function createdOnDays(column: string, query: { createdFrom?: string; createdTo?: string }) {
  const at = sql.ref(column);
  const from = query.createdFrom === undefined ? sql`true` : sql`${at} >= ${isoDate(query.createdFrom, 'query.createdFrom')}::date::timestamp at time zone 'UTC'`;
  const to = query.createdTo === undefined ? sql`true` : sql`${at} < (${isoDate(query.createdTo, 'query.createdTo')}::date + 1)::timestamp at time zone 'UTC'`;
  return sql<boolean>`(${from} and ${to})`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a reference is a row's id (random, so unguessable) rather than its sequential number. */
export const isId = (ref: string) => UUID.test(ref);

/** A reference known to be a row's id (`byNumber` false) or its human number (`INV-0012`, any case), as a condition. */
export const idOrNumberAs = (byNumber: boolean, ref: string, idColumn: string, numberColumn: string) => (byNumber
  ? sql<boolean>`upper(${sql.ref(numberColumn)}) = upper(${ref})`
  : sql<boolean>`${sql.ref(idColumn)} = ${ref}::uuid`);

/** A reference that is either a row's id or its human number (`INV-0012`, any case), as a condition. */
export const idOrNumber = (ref: string, idColumn: string, numberColumn: string) => idOrNumberAs(!isId(ref), ref, idColumn, numberColumn);
