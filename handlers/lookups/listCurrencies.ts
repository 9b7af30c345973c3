import type { Handler } from '../../server/platform/handler-types.js';
import { currencies } from '../../server/domain/reference/lists.js';
import { currencyFromRow } from './mappers.js';

/** Currencies: the default one first (what a picker preselects), then by ISO code. */
export const listCurrencies: Handler<'listCurrencies'> = async (ctx, req) => ({ data: (await currencies(ctx.db, req.query)).map(currencyFromRow) });
