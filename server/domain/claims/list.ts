import type { operations } from '../../../generated/api.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import type { StaffActor } from '../../platform/context.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffNamed } from '../staff/names.js';
import { claimsInReach } from './handling.js';
import { claimColumns, claimQuery, companyClaims, toClaims } from './view.js';

type ClaimListQuery = NonNullable<operations['listClaims']['parameters']['query']>;
type StaffClaimListQuery = NonNullable<operations['listStaffClaims']['parameters']['query']>;
/** The list's filters (a staff list passes its own query beside them). */
export type ClaimFilters = Pick<ClaimListQuery, 'clientId' | 'policyId' | 'status' | 'stage'>;

/** Claims narrowed by the list's filters. */
export function filterClaims(claims: ReturnType<typeof companyClaims>, { clientId, policyId, status, stage }: ClaimFilters) {
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
export function claimPage(scope: TenantScope, clientId: string, query: ClaimListQuery) {
  return pageOf(scope, filterClaims(claimQuery(scope, clientId), query), query);
}

/** One page of the claims of the clients within a staff member's reach, newest first, filtered (by the staff member credited with the policy too). */
export function staffClaimPage(scope: TenantScope, actor: StaffActor, query: StaffClaimListQuery) {
  const matching = filterClaims(claimsInReach(scope, actor), query)
    .$if(query.staffId !== undefined, (qb) => qb.where('policy.originating_staff_id', '=', query.staffId!))
    .$if(query.staffName !== undefined, (qb) => qb.where(staffNamed('policy.originating_staff_id', 'policy.tenant_id', query.staffName!)));
  return pageOf(scope, matching, query);
}

async function pageOf(scope: TenantScope, filtered: ReturnType<typeof companyClaims>, query: Pick<ClaimListQuery, 'page' | 'limit' | 'after' | 'include'>) {
  // The contract gives page and limit defaults, which request validation fills in.
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(claimColumns), 'claims', { page: query.page!, limit: query.limit!, after: query.after });
  return { claims: await toClaims(scope, rows, { withDocuments: query.include === 'documents' }), paginator };
}
