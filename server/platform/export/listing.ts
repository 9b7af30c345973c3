import { sql, type SelectQueryBuilder } from 'kysely';
import { badRequest } from '../errors.js';
import type { FileResult } from '../files.js';
import { pageOf, paginate, type Paginator } from '../pagination.js';
import { streamWorkbook, type Column } from './xlsx.js';

/** At most this many rows answer one unpaged JSON list; an export has no limit. */
export const UNPAGED_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;

export interface ListQuery { page?: number; limit?: number; usePagination?: boolean; format?: 'excel' }

/** A list's rows with their columns, not yet ordered. */
type Columns<Row> = SelectQueryBuilder<any, any, Row>;

/** The rows of `table`, newest first; the id breaks ties. */
export function newestFirst<Row>(rows: Columns<Row>, table: string): Columns<Row> {
  return rows.orderBy(sql.ref(`${table}.created_at`), 'desc').orderBy(sql.ref(`${table}.id`), 'desc');
}

/**
 * One page of a list, newest first: `filtered` (the matching rows, for counting) and `columns`
 * (the same rows with their columns) of `table`.
 */
export async function newestFirstPage<Row>(filtered: SelectQueryBuilder<any, any, any>, columns: Columns<Row>, table: string,
  { page, limit }: { page: number; limit: number }): Promise<{ rows: Row[]; paginator: Paginator }> {
  const { offset, paginator } = await pageOf(filtered, page, limit);
  return { rows: await newestFirst(columns, table).limit(limit).offset(offset).execute(), paginator };
}

/**
 * An export's rows, newest first, EXPORT_BATCH at a time: each call reads the batch after the last
 * row of the one before (keyset on `created_at`, `id`), so every query reads one batch whatever the
 * depth, where an OFFSET would re-read every row before it; `undefined` once there are no more. The
 * key is the exact stored `created_at` (as text: a JS Date drops its microseconds). Only a page's
 * start (`offset`) is skipped by counting. Between calls it holds only the key, not the rows.
 */
export function newestFirstBatches<Row>(rows: Columns<Row>, table: string, { offset, limit }: { offset: number; limit: number }): () => Promise<Row[] | undefined> {
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  let after: { createdAt: string; id: string } | undefined;
  let done = 0;
  let finished = false;
  return async () => {
    if (finished || done >= limit) return undefined;
    const want = Math.min(EXPORT_BATCH, limit - done);
    const batch = await newestFirst(rows, table)
      .select(sql<string>`${createdAt}::text`.as('keyset_created_at'))
      .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(${createdAt}, ${id}) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
      .$if(after === undefined && offset > 0, (qb) => qb.offset(offset))
      .limit(want)
      .execute() as (Row & { keyset_created_at: string; id: string })[];
    finished = batch.length < want;
    done += batch.length;
    const last = batch[batch.length - 1];
    if (last) after = { createdAt: last.keyset_created_at, id: last.id };
    return batch.length > 0 ? batch : undefined;
  };
}

/**
 * A list answered as the seed's lists are: one page, every row (`usePagination=false`, up to
 * UNPAGED_LIMIT), or an .xlsx export of either (`format=excel`, which needs `usePagination`),
 * read from the database a keyset batch at a time so memory and time per batch stay flat.
 */
export async function listOrExport<Row, Item, ExportRow = Item>(options: {
  query: ListQuery;
  /** The filtered rows, for counting. */
  matching: SelectQueryBuilder<any, any, any>;
  /** The same rows with their columns (an `id` and a `created_at` among them), unordered. */
  columns: Columns<Row>;
  /** The table whose `created_at` and `id` order the list, newest first. */
  table: string;
  toItems: (rows: Row[]) => Promise<Item[]>;
  noun: string;
  sheet: { name: string; filename: string; columns: Column<ExportRow>[]; rows?: (items: Item[], rows: Row[]) => Promise<ExportRow[]> };
}): Promise<{ data: Item[]; paginator: Paginator } | FileResult> {
  const { query, noun, sheet, table } = options;
  if (query.format === 'excel' && query.usePagination === undefined) throw badRequest('query.usePagination is required with format=excel');
  const usePagination = query.usePagination ?? true;

  if (query.format === 'excel') {
    const page = usePagination ? { offset: (query.page! - 1) * query.limit!, limit: query.limit! } : { offset: 0, limit: Infinity };
    const nextBatch = newestFirstBatches(options.columns, table, page);
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
  const { itemsCount } = (await pageOf(options.matching, 1, 1)).paginator;
  const page = usePagination ? query.page! : 1;
  const limit = usePagination ? query.limit! : Math.max(itemsCount, 1);
  const { offset, paginator } = paginate({ page, limit, itemsCount });
  if (!usePagination && itemsCount > UNPAGED_LIMIT) {
    throw badRequest(`query.usePagination=false would answer ${itemsCount} ${noun} (at most ${UNPAGED_LIMIT}); page through them or export with format=excel`);
  }
  const rows = await newestFirst(options.columns, table).limit(limit).offset(offset).execute();
  return { data: await options.toItems(rows), paginator };
}
