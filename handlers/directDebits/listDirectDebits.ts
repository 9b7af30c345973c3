import { newestFirstPage } from '../../server/platform/export/listing.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { directDebitColumns, directDebitQuery, toDirectDebits } from '../../server/domain/money/direct-debit-view.js';

/** One page of the signed-in client's mandates, newest first, filtered by policy when asked. */
export const listDirectDebits: Handler<'listDirectDebits'> = async (ctx, req) => {
  const { policyId } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const filtered = directDebitQuery(ctx.scope, clientId(ctx))
    .$if(policyId !== undefined, (qb) => qb.where('direct_debits.policy_id', '=', policyId!));
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(directDebitColumns), 'direct_debits', { page, limit });
  return { data: await toDirectDebits(ctx.scope, rows), paginator };
};
