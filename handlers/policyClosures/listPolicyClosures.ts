import { newestFirstPage } from '../../server/platform/export/listing.js';
import { clientId } from '../../server/platform/actor.js';
import { containsPattern } from '../../server/platform/filters.js';
import type { Handler } from '../types.js';
import { closureColumns, closureQuery, toPolicyClosure } from '../../server/domain/policies/closures.js';

/** One page of the signed-in client's closure requests, newest first, filtered as asked. */
export const listPolicyClosures: Handler<'listPolicyClosures'> = async (ctx, req) => {
  const { status, policyId, policyNo, id } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const filtered = closureQuery(ctx.scope, clientId(ctx))
    .$if(status !== undefined, (qb) => qb.where('policy_closures.status', '=', status!))
    .$if(policyId !== undefined, (qb) => qb.where('policy_closures.policy_id', '=', policyId!))
    .$if(policyNo !== undefined, (qb) => qb.where('policy.policy_no', 'ilike', containsPattern(policyNo!)))
    .$if(id !== undefined, (qb) => qb.where('policy_closures.id', '=', id!));

  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(closureColumns), 'policy_closures', { page, limit });
  return { data: rows.map(toPolicyClosure), paginator };
};
