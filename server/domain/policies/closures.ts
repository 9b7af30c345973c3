import type { components, operations } from '../../../generated/api.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { containsPattern } from '../../platform/filters.js';
import type { Paginator } from '../../platform/pagination.js';
import { checkOwnDocuments } from '../documents/owned.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { ownRow } from '../../platform/ownership.js';
import { staffReference } from '../staff/names.js';
import { todayOf } from '../../platform/clock.js';

export type PolicyClosure = components['schemas']['PolicyClosure'];

/**
 * The company's closure requests joined to the policy each is about and to the staff member who
 * decided it (if anyone has). Callers narrow them to a client (`closureQuery`) or to a staff
 * member's reach, and add their filters.
 */
export function companyClosures(scope: TenantScope) {
  return scope.selectFrom('policy_closures')
    .innerJoin('policies as policy', (join) => join.onRef('policy.id', '=', 'policy_closures.policy_id')
      .onRef('policy.tenant_id', '=', 'policy_closures.tenant_id'))
    .leftJoin('staff as reviewer', (join) => join.onRef('reviewer.id', '=', 'policy_closures.reviewed_by_staff_id')
      .onRef('reviewer.tenant_id', '=', 'policy_closures.tenant_id'))
    .leftJoin('staff as requester', (join) => join.onRef('requester.id', '=', 'policy_closures.requested_by_staff_id')
      .onRef('requester.tenant_id', '=', 'policy_closures.tenant_id'));
}

/** The client's closure requests. Callers add their filters. */
export const closureQuery = (scope: TenantScope, clientId: string) => companyClosures(scope).where('policy_closures.client_id', '=', clientId);

export const closureColumns = [
  'policy_closures.id', 'policy_closures.status', 'policy_closures.reason', 'policy_closures.effective_date',
  'policy_closures.notes', 'policy_closures.document_ids', 'policy_closures.reviewed_at', 'policy_closures.review_notes',
  'policy_closures.created_at', 'policy_closures.updated_at', 'policy_closures.client_id',
  'policy.id as policy_id', 'policy.policy_no', 'policy.policy_type', 'policy.state as policy_state',
  'policy.start_date as policy_start_date', 'policy.end_date as policy_end_date',
  'reviewer.id as reviewer_id', 'reviewer.first_name as reviewer_first_name', 'reviewer.other_names as reviewer_other_names',
  'reviewer.last_name as reviewer_last_name', 'reviewer.email as reviewer_email',
  'requester.id as requester_id', 'requester.first_name as requester_first_name', 'requester.other_names as requester_other_names',
  'requester.last_name as requester_last_name', 'requester.email as requester_email',
] as const;

/** The client's requests with every column a PolicyClosure shows. */
export const closureRows = (scope: TenantScope, clientId: string) => closureQuery(scope, clientId).select(closureColumns);
export type ClosureRow = Awaited<ReturnType<ReturnType<typeof closureRows>['executeTakeFirstOrThrow']>>;

/** The query of a closure request list: its filters and its page (a staff list filters by client too). */
export type ClosureListQuery = NonNullable<operations['listPolicyClosures']['parameters']['query']>;
export type StaffClosureListQuery = NonNullable<operations['listStaffPolicyClosures']['parameters']['query']>;
export type ClosureFilters = Pick<StaffClosureListQuery, 'status' | 'policyId' | 'policyNo' | 'id' | 'clientId'>;

/** Narrows a closure query to the requests matching every filter given. */
export function filterClosures(closures: ReturnType<typeof companyClosures>, { status, policyId, policyNo, id, clientId }: ClosureFilters) {
  return closures
    .$if(status !== undefined, (qb) => qb.where('policy_closures.status', '=', status!))
    .$if(policyId !== undefined, (qb) => qb.where('policy_closures.policy_id', '=', policyId!))
    .$if(policyNo !== undefined, (qb) => qb.where('policy.policy_no', 'ilike', containsPattern(policyNo!)))
    .$if(id !== undefined, (qb) => qb.where('policy_closures.id', '=', id!))
    .$if(clientId !== undefined, (qb) => qb.where('policy_closures.client_id', '=', clientId!));
}

/** One page of closure requests (a client's own, or those within a staff member's reach), newest first, filtered as asked. */
export async function closurePage(closures: ReturnType<typeof companyClosures>, query: ClosureFilters & Pick<ClosureListQuery, 'page' | 'limit' | 'after'>)
  : Promise<{ data: PolicyClosure[]; paginator: Paginator }> {
  // The contract gives page and limit defaults, which request validation fills in.
  const page = { page: query.page!, limit: query.limit!, after: query.after };
  const filtered = filterClosures(closures, query);
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(closureColumns), 'policy_closures', page);
  return { data: rows.map(toPolicyClosure), paginator };
}

/** One page of a client's closure requests, newest first, filtered as asked. */
export const listClosures = (scope: TenantScope, clientId: string, query: ClosureListQuery) => closurePage(closureQuery(scope, clientId), query);

/** Row -> PolicyClosure. */
export function toPolicyClosure(row: ClosureRow): PolicyClosure {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    effectiveDate: row.effective_date,
    notes: row.notes,
    documentIds: row.document_ids,
    policy: {
      id: row.policy_id,
      policyNo: row.policy_no,
      policyType: row.policy_type as PolicyClosure['policy']['policyType'],
      state: row.policy_state,
      startDate: row.policy_start_date,
      endDate: row.policy_end_date,
    },
    reviewedAt: row.reviewed_at === null ? null : new Date(row.reviewed_at).toISOString(),
    reviewedBy: row.reviewer_id === null ? null : staffReference({
      id: row.reviewer_id, first_name: row.reviewer_first_name!, other_names: row.reviewer_other_names, last_name: row.reviewer_last_name!,
      email: row.reviewer_email!,
    }),
    requestedBy: row.requester_id === null ? null : staffReference({
      id: row.requester_id, first_name: row.requester_first_name!, other_names: row.requester_other_names, last_name: row.requester_last_name!,
      email: row.requester_email!,
    }),
    reviewNotes: row.review_notes,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * The signed-in client's request with this id, or 404 (another client's or tenant's id included).
 * `lock` holds the request's row until the transaction ends, so a review cannot slip in between
 * the pending check and the change.
 */
export const ownClosure = (scope: TenantScope, id: string, clientId: string, options: { lock?: boolean } = {}): Promise<ClosureRow> =>
  ownRow(closureRows(scope, clientId), 'policy_closures', id, 'Policy closure', options);

/** Only a request still under review may be changed or withdrawn (docs/docs/state-machines.md). */
export function assertPending(row: Pick<ClosureRow, 'status' | 'policy_no'>): void {
  if (row.status !== 'PENDING_REVIEW') {
    throw conflict(`The closure request for policy ${row.policy_no} is ${row.status}; only a request PENDING_REVIEW can be changed or withdrawn`,
      'CLOSURE_REVIEWED');
  }
}

/** Cover can end today at the earliest, and not after the policy would have ended anyway. */
export function checkEffectiveDate(effectiveDate: string, policyEndDate: string, now: Date): void {
  const today = todayOf(now).date;
  if (effectiveDate < today) throw badRequest(`body.effectiveDate must not be in the past (today is ${today})`);
  if (effectiveDate > policyEndDate) throw badRequest(`body.effectiveDate must not be after the policy's endDate (${policyEndDate})`);
}

/** Supporting documents: each named once, each one of the client's own uploads. */
export const checkDocuments = (scope: TenantScope, clientId: string, ids: readonly string[]) =>
  checkOwnDocuments(scope, clientId, ids, 'body.documentIds');

/** The unique index allows one pending request per policy: the last wall behind the policy row lock. */
export async function guardOnePending<T>(policyNo: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'policy_closures_one_pending') throw pendingConflict(policyNo);
    throw error;
  }
}

export const pendingConflict = (policyNo: string) =>
  conflict(`Policy ${policyNo} already has a closure request under review; change that one instead`, 'CLOSURE_PENDING');
