import { newestFirstPage } from '../../server/platform/export/listing.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { claimColumns, claimQuery, toClaims } from '../../server/domain/claims/view.js';

/** One page of the signed-in client's claims, newest first, filtered as asked. */
export const listClaims: Handler<'listClaims'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const { clientId: clientFilter, policyId, status, stage, include } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  // A client sees only its own claims: another client's id matches nothing (as listPolicies does).
  const filtered = claimQuery(ctx.scope, owner)
    .$if(clientFilter !== undefined, (qb) => qb.where('claims.client_id', '=', clientFilter!))
    .$if(policyId !== undefined, (qb) => qb.where('claims.policy_id', '=', policyId!))
    .$if(status !== undefined, (qb) => qb.where('claims.status', '=', status!))
    .$if(stage !== undefined, (qb) => qb.where('claims.stage', '=', stage!));

  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(claimColumns), 'claims', { page, limit });
  return { data: await toClaims(ctx.scope, rows, { withDocuments: include === 'documents' }), paginator };
};
