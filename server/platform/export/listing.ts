import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { compiledQueries } from '../db/compiled-query.js';
import type { Database } from '../db/schema.js';
import { badRequest } from '../errors.js';
import type { FileResult } from '../files.js';
import { pageOf, paginate, type Paginator } from '../pagination.js';
import { streamWorkbook, type Column } from './xlsx.js';

/** At most this many rows answer one unpaged JSON list; an export has no limit. */
export const UNPAGED_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;

export interface ListQuery { page?: number; limit?: number; after?: string; usePagination?: boolean; format?: 'excel' }

/** A list's rows with their columns, not yet ordered. */
type Columns<Row> = SelectQueryBuilder<any, any, Row>;

/**
 * Where a keyset page starts: a row's exact `created_at` (as text: a JS Date drops its
 * microseconds) and its id. The rows after it, newest first, are `(created_at, id) < key`.
 */
export interface Keyset { createdAt: string; id: string }

/** `created_at` as PostgreSQL prints it (DateStyle ISO), with its offset; checked before it is cast. */
const PG_TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor of a keyset (`after`, `nextCursor`): base64url of `[createdAt, id]`. */
export function encodeCursor(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id])).toString('base64url');
}

/** The keyset a cursor names; anything not made by encodeCursor (or not a real instant) is a 400. */
export function decodeCursor(cursor: string, field = 'query.after'): Keyset {
  const invalid = () => badRequest(`${field} is not a valid cursor`);
  let key: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(key) || key.length !== 2 || typeof key[0] !== 'string' || typeof key[1] !== 'string' || !UUID.test(key[1])) throw invalid();
  const parts = PG_TIMESTAMPTZ.exec(key[0]);
  if (!parts) throw invalid();
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(year, month, 0); // (Date.UTC reads years 0-99 as 1900-1999)
  const daysInMonth = lastOfMonth.getUTCDate();
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) throw invalid();
  return { createdAt: key[0], id: key[1] };
}

/** The rows of `table`, newest first; the id breaks ties. */
export function newestFirst<Row>(rows: Columns<Row>, table: string): Columns<Row> {
  return rows.orderBy(sql.ref(`${table}.created_at`), 'desc').orderBy(sql.ref(`${table}.id`), 'desc');
}

type Keyed<Row> = Row & { keyset_created_at: string; id: string };

/**
 * The rows of `table` newest first, with each row's keyset (`keyset_created_at`, the exact
 * stored `created_at` as text), from the row after `after` when it is given: every such query
 * reads only the rows it answers (the list indexes end in `created_at desc, id desc`), where an
 * OFFSET re-reads every row before it.
 */
function newestFirstAfter<Row>(rows: Columns<Row>, table: string, after: Keyset | undefined) {
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  return newestFirst(rows, table)
    .select(sql<string>`${createdAt}::text`.as('keyset_created_at'))
    .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(${createdAt}, ${id}) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`));
}

const keyOf = (row: { keyset_created_at: string; id: string }): Keyset => ({ createdAt: row.keyset_created_at, id: row.id });

/**
 * The rows matching (`filtered`) and, with a cursor, how many of them come before it (at or
 * above its key): one count, over the same rows page 1 counts (the list indexes hold both keys).
 */
function countQuery(filtered: SelectQueryBuilder<any, any, any>, table: string, after: Keyset | undefined) {
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  return filtered.select((eb) => [
    eb.fn.countAll<string>().as('count'),
    (after === undefined
      ? sql<string>`0`
      : sql<string>`count(*) filter (where (${createdAt}, ${id}) >= (${after.createdAt}::timestamptz, ${after.id}::uuid))`).as('before'),
  ]) as SelectQueryBuilder<any, any, { count: string; before: string }>;
}

/**
 * The paginator of a page that starts after a cursor: `offset` is how many matching rows come
 * before it; `page` the page of `limit` rows its first row falls on, `prevPage`/`nextPage` the
 * pages holding the rows just before and just after it.
 */
function cursorPaginator({ itemsCount, offset, limit, rows }: { itemsCount: number; offset: number; limit: number; rows: number }): Paginator {
  const pageOfRow = (index: number) => Math.floor(index / limit) + 1;
  const hasPrevPage = offset > 0;
  const hasNextPage = offset + rows < itemsCount;
  return {
    itemsCount, offset, limit, pageCount: Math.ceil(itemsCount / limit), page: pageOfRow(offset), pagingCounter: offset + 1,
    hasPrevPage, hasNextPage, prevPage: hasPrevPage ? pageOfRow(offset - 1) : null, nextPage: hasNextPage ? pageOfRow(offset + rows) : null,
  };
}

/**
 * One page of a list, newest first: `filtered` (the matching rows, for counting) and `columns`
 * (the same rows with their columns) of `table`; `limit` rows, the `page`th or, with `after` (a
 * cursor), the ones after the row it names. One row more than the page is read, so `nextCursor`
 * (the key of the page's last row) is null exactly on the last page.
 */
export async function newestFirstPage<Row>(filtered: SelectQueryBuilder<any, any, any>, columns: Columns<Row>, table: string,
  { page, limit, after }: { page: number; limit: number; after?: string }): Promise<{ rows: Row[]; paginator: Paginator }> {
  const key = after === undefined ? undefined : decodeCursor(after);
  return pageFrom({ page, limit, key },
    async () => countQuery(filtered, table, key).executeTakeFirstOrThrow(),
    async (offset) => newestFirstAfter(columns, table, key).limit(limit + 1).$if(offset > 0, (qb) => qb.offset(offset)).execute() as Promise<Keyed<Row>[]>);
}

/**
 * A list's queries as functions of their values, so that its JSON pages can be built once per
 * shape (`compiledQueries`): `shape` names all that changes the queries' form (the filters given,
 * never a value), `values` what fills them. `matching` (the rows, for counting) and `columns` (the
 * same rows with their columns) use the values as values only: given stand-ins they are compiled
 * once, given the values themselves they build an export's or an unpaged list's queries as usual.
 */
export interface ShapedList<P extends object, Row> {
  /** The list's name: its shapes are its own. */
  name: string;
  shape: string;
  values: P;
  db: Kysely<Database>;
  matching(db: Kysely<Database>, values: P, shape: string): SelectQueryBuilder<any, any, any>;
  columns(db: Kysely<Database>, values: P, shape: string): Columns<Row>;
}

/**
 * A list's filters as a shaped list takes them: `given` keeps the filters given (their keys are the
 * shape), `shapeOfFilters` names that shape, and `filtersIn` reads it back as the set of filters a
 * build applies (a filter's condition is added when its key is in it, its value used as a value).
 */
export const givenFilters = <T extends object>(values: T): T =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as T;
export const shapeOfFilters = (values: object) => Object.keys(values).sort().join(' ');
export const filtersIn = (shape: string): ReadonlySet<string> => new Set(shape.split(' ').filter(Boolean));

type PageValues = Record<string, unknown> & { limit?: number; offset?: number; afterCreatedAt?: string; afterId?: string };
const pageCounts = compiledQueries((shape: string, db, values: PageValues) => {
  const list = shapedLists.get(shape.slice(0, shape.lastIndexOf('|')))!;
  return countQuery(list.matching(db, values, list.shape), list.table, keysetOf(shape, values));
});
const pageRows = compiledQueries((shape: string, db, values: PageValues) => {
  const list = shapedLists.get(shape.slice(0, shape.lastIndexOf('|')))!;
  return newestFirstAfter(list.columns(db, values, list.shape), list.table, keysetOf(shape, values)).limit(values.limit!).offset(values.offset!);
});
/** The lists whose pages are compiled, by name and shape: what the compiled queries' builds call. */
const shapedLists = new Map<string, Pick<ShapedList<any, any>, 'shape' | 'matching' | 'columns'> & { table: string }>();
const keysetOf = (shape: string, values: PageValues): Keyset | undefined =>
  (shape.endsWith('|after') ? { createdAt: values.afterCreatedAt!, id: values.afterId! } : undefined);

/** `newestFirstPage` of a shaped list: its count and its rows each compiled once per shape and kind of page (numbered or after a cursor). */
async function shapedPage<Row>(list: ShapedList<any, Row>, table: string,
  { page, limit, after }: { page: number; limit: number; after?: string }): Promise<{ rows: Row[]; paginator: Paginator }> {
  const key = after === undefined ? undefined : decodeCursor(after);
  const listShape = `${list.name} ${list.shape}`;
  if (!shapedLists.has(listShape)) shapedLists.set(listShape, { table, shape: list.shape, matching: list.matching, columns: list.columns });
  const shape = `${listShape}|${key ? 'after' : 'page'}`;
  const values: PageValues = { ...list.values, ...(key ? { afterCreatedAt: key.createdAt, afterId: key.id } : {}) };
  return pageFrom({ page, limit, key },
    async () => (await pageCounts(shape, list.db, values))[0],
    async (offset) => pageRows(shape, list.db, { ...values, limit: limit + 1, offset }) as Promise<Keyed<Row>[]>);
}

/** A page from its count and its rows (read from `offset`, one more than the page). */
async function pageFrom<Row>({ page, limit, key }: { page: number; limit: number; key: Keyset | undefined },
  count: () => Promise<{ count: string; before: string }>, read: (offset: number) => Promise<Keyed<Row>[]>) {
  const counted = await count();
  const itemsCount = Number(counted.count);
  const before = Number(counted.before);
  const numbered = key === undefined ? paginate({ page, limit, itemsCount }) : undefined;
  const rowsRead = await read(numbered?.offset ?? 0);
  const rows = rowsRead.slice(0, limit);
  const paginator = numbered?.paginator ?? cursorPaginator({ itemsCount, offset: before, limit, rows: rows.length });
  return { rows, paginator: { ...paginator, nextCursor: rowsRead.length > limit ? encodeCursor(keyOf(rows[rows.length - 1])) : null } };
}

/**
 * A list query as the caller sent it (`sent`: the query parameters in the URL): `page` and
 * `after` say where a page starts two ways, so not both (`page`'s default of 1 is not sent).
 */
export function pageOrCursor<Q extends { after?: string }>(query: Q, sent: ReadonlySet<string>): Q {
  if (query.after !== undefined && sent.has('page')) throw badRequest('query.after cannot be given with query.page: the cursor says where the page starts');
  return query;
}

/**
 * An export's rows, newest first, EXPORT_BATCH at a time: each call reads the batch after the last
 * row of the one before (keyset on `created_at`, `id`), so every query reads one batch whatever the
 * depth, where an OFFSET would re-read every row before it; `undefined` once there are no more. Only
 * a page's start (`offset`) is skipped by counting, unless it starts after a cursor (`after`).
 * Between calls it holds only the key, not the rows.
 */
export function newestFirstBatches<Row>(rows: Columns<Row>, table: string,
  { offset, limit, after: start }: { offset: number; limit: number; after?: Keyset }): () => Promise<Row[] | undefined> {
  let after = start;
  let done = 0;
  let finished = false;
  return async () => {
    if (finished || done >= limit) return undefined;
    const want = Math.min(EXPORT_BATCH, limit - done);
    const batch = await newestFirstAfter(rows, table, after)
      .$if(after === undefined && offset > 0, (qb) => qb.offset(offset))
      .limit(want)
      .execute() as Keyed<Row>[];
    finished = batch.length < want;
    done += batch.length;
    const last = batch[batch.length - 1];
    if (last) after = keyOf(last);
    return batch.length > 0 ? batch : undefined;
  };
}

/**
 * A list answered as the seed's lists are: one page, every row (`usePagination=false`, up to
 * UNPAGED_LIMIT), or an .xlsx export of either (`format=excel`, which needs `usePagination`),
 * read from the database a keyset batch at a time so memory and time per batch stay flat.
 */
export async function listOrExport<Row, Item, ExportRow = Item>(options: ({
  /** The filtered rows, for counting. */
  matching: SelectQueryBuilder<any, any, any>;
  /** The same rows with their columns (an `id` and a `created_at` among them), unordered. */
  columns: Columns<Row>;
} | {
  /** Both as functions of their values: a JSON page's queries are then built once per shape. */
  shaped: ShapedList<any, Row>;
}) & {
  query: ListQuery;
  /** The table whose `created_at` and `id` order the list, newest first. */
  table: string;
  toItems: (rows: Row[]) => Promise<Item[]>;
  noun: string;
  sheet: { name: string; filename: string; columns: Column<ExportRow>[]; rows?: (items: Item[], rows: Row[]) => Promise<ExportRow[]> };
}): Promise<{ data: Item[]; paginator: Paginator } | FileResult> {
  const { query, noun, sheet, table } = options;
  const built = () => ('shaped' in options
    ? { matching: options.shaped.matching(options.shaped.db, options.shaped.values, options.shaped.shape),
      columns: options.shaped.columns(options.shaped.db, options.shaped.values, options.shaped.shape) }
    : { matching: options.matching, columns: options.columns });
  if (query.format === 'excel' && query.usePagination === undefined) throw badRequest('query.usePagination is required with format=excel');
  const usePagination = query.usePagination ?? true;
  if (query.after !== undefined && !usePagination) throw badRequest('query.after cannot be given with usePagination=false');

  if (query.format === 'excel') {
    const after = query.after === undefined ? undefined : decodeCursor(query.after);
    const page = usePagination
      ? { offset: after ? 0 : (query.page! - 1) * query.limit!, limit: query.limit!, after }
      : { offset: 0, limit: Infinity };
    const nextBatch = newestFirstBatches(built().columns, table, page);
    // A batch's cells only: its rows and items are garbage once they are read, before the sheet is written.
    const nextCells = async () => {
      const rows = await nextBatch();
      if (!rows) return undefined;
      const items = await options.toItems(rows);
      const exported = sheet.rows ? await sheet.rows(items, rows) : items as unknown as ExportRow[];
      return exported.map((row) => sheet.columns.map((column) => column.value(row)));
    };
    return streamWorkbook(sheet.name, sheet.filename, sheet.columns, nextCells);
  }
  if (usePagination) {
    const paging = { page: query.page!, limit: query.limit!, after: query.after };
    const { rows, paginator } = 'shaped' in options
      ? await shapedPage(options.shaped, table, paging)
      : await newestFirstPage(options.matching, options.columns, table, paging);
    return { data: await options.toItems(rows), paginator };
  }
  const { matching, columns } = built();
  const { itemsCount } = (await pageOf(matching, 1, 1)).paginator;
  if (itemsCount > UNPAGED_LIMIT) {
    throw badRequest(`query.usePagination=false would answer ${itemsCount} ${noun} (at most ${UNPAGED_LIMIT}); page through them or export with format=excel`);
  }
  const limit = Math.max(itemsCount, 1);
  const rows = await newestFirst(columns, table).limit(limit).execute();
  return { data: await options.toItems(rows), paginator: { ...paginate({ page: 1, limit, itemsCount }).paginator, nextCursor: null } };
}
