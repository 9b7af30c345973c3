import type { Handler } from '../types.js';
import { currencyFromRow } from './mappers.js';

/** Currencies: the default one first (what a picker preselects), then by ISO code. */
export const listCurrencies: Handler<'listCurrencies'> = async (ctx, req) => {
  const { status, code } = req.query;
  const rows = await ctx.db.selectFrom('currencies')
    .selectAll()
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!))
    .$if(code !== undefined, (qb) => qb.where('code', '=', code!))
    .orderBy('is_default', 'desc')
    .orderBy('code')
    .execute();
  return { data: rows.map(currencyFromRow) };
};
