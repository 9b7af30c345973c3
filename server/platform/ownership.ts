import { sql, type SelectQueryBuilder } from 'kysely';
import { notFound } from './errors.js';

/**
 * The one row of `rows` (a client's own rows of `table`, with their columns) whose id is `id`, or
 * 404 naming `noun`: another client's or tenant's id matches nothing, exactly like an unknown one.
 * `lock` holds the row (`FOR UPDATE OF table`) until the transaction the query runs in ends, so nothing can change
 * it between the caller's check and its change.
 */
export async function ownRow<Row>(rows: SelectQueryBuilder<any, any, Row>, table: string, id: string, noun: string, { lock = false } = {}): Promise<Row> {
  const row = await rows.where(sql.ref(`${table}.id`), '=', id)
    .$if(lock, (qb) => qb.forUpdate(table))
    .executeTakeFirst();
  if (!row) throw notFound(noun);
  return row as Row;
}
