import type { SelectQueryBuilder } from 'kysely';
import type { components } from '../../generated/api.js';

/** The `paginator` of every paged list, as the contract (schemas/Paginator.yaml) defines it. */
export type Paginator = components['schemas']['Paginator'];

export interface PageRequest {
  /** Page number, from 1. */
  page: number;
  /** Rows per page, at least 1. */
  limit: number;
  /** Rows matching the filters over all pages. */
  itemsCount: number;
}

/** Offset-pagination maths: the rows to skip and the paginator describing the page. */
export function paginate({ page, limit, itemsCount }: PageRequest): { offset: number; paginator: Paginator } {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be an integer >= 1, got ${page}`);
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
  if (!Number.isInteger(itemsCount) || itemsCount < 0) throw new RangeError(`itemsCount must be an integer >= 0, got ${itemsCount}`);
  const offset = (page - 1) * limit;
  const pageCount = Math.ceil(itemsCount / limit);
  // A page past the last one still has a previous page, so a client can step back.
  const hasPrevPage = page > 1;
  const hasNextPage = page < pageCount;
  return {
    offset,
    paginator: {
      itemsCount,
      offset,
      limit,
      pageCount,
      page,
      pagingCounter: offset + 1,
      hasPrevPage,
      hasNextPage,
      prevPage: hasPrevPage ? page - 1 : null,
      nextPage: hasNextPage ? page + 1 : null,
    },
  };
}

/** Counts the rows a filtered query matches and answers the page's offset and paginator. */
export async function pageOf(query: SelectQueryBuilder<any, any, any>, page: number, limit: number) {
  const { count } = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  return paginate({ page, limit, itemsCount: Number(count) });
}
