import type { SelectQueryBuilder } from 'kysely';
import { badRequest } from '../errors.js';
import type { FileResult } from '../files.js';
import { pageOf, paginate, type Paginator } from '../pagination.js';
import { streamWorkbook, type Column } from './xlsx.js';

/** At most this many rows answer one unpaged JSON list; an export has no limit. */
export const UNPAGED_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;

export interface ListQuery { page?: number; limit?: number; usePagination?: boolean; format?: 'excel' }

/**
 * A list answered as the seed's lists are: one page, every row (`usePagination=false`, up to
 * UNPAGED_LIMIT), or an .xlsx export of either (`format=excel`, which needs `usePagination`),
 * read from the database a batch at a time so memory stays flat.
 */
export async function listOrExport<Row, Item, ExportRow = Item>(options: {
  query: ListQuery;
  /** The filtered rows, for counting. */
  matching: SelectQueryBuilder<any, any, any>;
  /** The same rows with their columns, in the list's order. */
  ordered: { limit(n: number): { offset(n: number): { execute(): Promise<Row[]> } } };
  toItems: (rows: Row[]) => Promise<Item[]>;
  noun: string;
  sheet: { name: string; filename: string; columns: Column<ExportRow>[]; rows?: (items: Item[], rows: Row[]) => Promise<ExportRow[]> };
}): Promise<{ data: Item[]; paginator: Paginator } | FileResult> {
  const { query, noun, sheet } = options;
  if (query.format === 'excel' && query.usePagination === undefined) throw badRequest('query.usePagination is required with format=excel');
  const usePagination = query.usePagination ?? true;
  const { itemsCount } = (await pageOf(options.matching, 1, 1)).paginator;
  const page = usePagination ? query.page! : 1;
  const limit = usePagination ? query.limit! : Math.max(itemsCount, 1);
  const { offset, paginator } = paginate({ page, limit, itemsCount });

  if (query.format === 'excel') {
    const batches = async function* () {
      for (let done = 0; done < limit && offset + done < itemsCount; done += EXPORT_BATCH) {
        const rows = await options.ordered.limit(Math.min(EXPORT_BATCH, limit - done)).offset(offset + done).execute();
        if (rows.length === 0) return;
        const items = await options.toItems(rows);
        yield sheet.rows ? await sheet.rows(items, rows) : items as unknown as ExportRow[];
      }
    };
    return streamWorkbook(sheet.name, sheet.filename, sheet.columns, batches());
  }
  if (!usePagination && itemsCount > UNPAGED_LIMIT) {
    throw badRequest(`query.usePagination=false would answer ${itemsCount} ${noun} (at most ${UNPAGED_LIMIT}); page through them or export with format=excel`);
  }
  const rows = await options.ordered.limit(limit).offset(offset).execute();
  return { data: await options.toItems(rows), paginator };
}
