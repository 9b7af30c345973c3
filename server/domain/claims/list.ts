import type { operations } from '../../../generated/api.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { claimColumns, claimQuery, toClaims } from './view.js';

type ClaimListQuery = NonNullable<operations['listClaims']['parameters']['query']>;
/** The list's filters (a staff list passes its own query beside them). */
export type ClaimFilters = Pick<ClaimListQuery, 'clientId' | 'policyId' | 'status' | 'stage'>;

/** Claims narrowed by the list's filters. */
export function filterClaims(claims: ReturnType<typeof claimQuery>, { clientId, policyId, status, stage }: ClaimFilters) {
  return claims
    .$if(clientId !== undefined, (qb) => qb.where('claims.client_id', '=', clientId!))
    .$if(policyId !== undefined, (qb) => qb.where('claims.policy_id', '=', policyId!))
    .$if(status !== undefined, (qb) => qb.where('claims.status', '=', status!))
    .$if(stage !== undefined, (qb) => qb.where('claims.stage', '=', stage!));
}

/**
 * One page of the client's claims, newest first, filtered as asked. A client sees only its own
 * claims: another client's id in `clientId` matches nothing (as the policy list does).
 */
export async function claimPage(scope: TenantScope, clientId: string, query: ClaimListQuery) {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const filtered = filterClaims(claimQuery(scope, clientId), query);
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(claimColumns), 'claims', { page, limit });
  return { claims: await toClaims(scope, rows, { withDocuments: query.include === 'documents' }), paginator };
}
