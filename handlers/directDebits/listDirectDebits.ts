import { pageOf } from '../../server/pagination.js';
import { clientId } from '../auth/session.js';
import type { Handler } from '../types.js';
import { directDebitColumns, directDebitQuery, toDirectDebits } from './view.js';

/** One page of the signed-in client's mandates, newest first, filtered by policy when asked. */
export const listDirectDebits: Handler<'listDirectDebits'> = async (ctx, req) => {
  const { policyId } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const filtered = directDebitQuery(ctx.scope, clientId(ctx))
    .$if(policyId !== undefined, (qb) => qb.where('direct_debits.policy_id', '=', policyId!));
  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered.select(directDebitColumns)
    .orderBy('direct_debits.created_at', 'desc')
    .orderBy('direct_debits.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { data: await toDirectDebits(ctx.scope, rows), paginator };
};
