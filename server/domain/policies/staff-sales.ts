import type { SelectQueryBuilder } from 'kysely';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { ownRow } from '../../platform/ownership.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { clientFullName } from '../clients/account.js';
import { creditableStaff, reachableClient } from '../clients/staff-clients.js';
import { originatedInReach, type Reacher } from '../staff/reach.js';
import type { StateActor } from '../states/policy.js';
import { issuePolicy, type PolicyCreateRequest, type Seller } from './issue.js';
import { answerPolicyList, assetsWanted, shapedPolicyList, type PolicyListQuery } from './list.js';
import { quotePolicy, type Quote } from './quote.js';
import { issueRenewal, type PolicyRenewal } from './renew.js';
import { assetsOf, policyQuery, toPolicy, withPolicyColumns, type Policy } from './view.js';

/**
 * Staff selling to and serving clients. Every client, and every policy through its client, is
 * reached through the caller's reach (`originatedInReach` over the client's originating staff):
 * out of reach answers 404, as another company's id does.
 */

/** The client with this id within the caller's reach, or 404; a deactivated one is 409 (staff do not sell to it). */
export async function clientToSellTo(scope: TenantScope, actor: StaffActor, clientId: string) {
  const client = await reachableClient(scope, actor, clientId);
  if (!client.is_active) throw conflict(`Client ${clientFullName(client)} is deactivated: reactivate them before selling`, 'CLIENT_INACTIVE');
  return client;
}

/** The staff member credited with a sale: the caller, unless the body names another it may credit (`creditableStaff`). */
const creditedStaff = (scope: TenantScope, actor: StaffActor, originatingStaffId: string | undefined): Promise<string> =>
  (originatingStaffId === undefined ? Promise.resolve(actor.staffId) : creditableStaff(scope, actor, originatingStaffId));

/** The seller a staff member is for this client and body, the client checked first. */
async function staffSeller(scope: TenantScope, actor: StaffActor, clientId: string, body: PolicyCreateRequest): Promise<Seller> {
  if (body.clientId !== undefined && body.clientId !== clientId) throw badRequest('body.clientId must be the client in the path (or left out)');
  await clientToSellTo(scope, actor, clientId);
  return sellerOf(actor, await creditedStaff(scope, actor, body.originatingStaffId));
}

export const sellerOf = (actor: StaffActor, originatingStaffId: string): Seller =>
  ({ by: 'staff', staffId: actor.staffId, originatingStaffId, premiumLatitude: actor.premiumLatitude });

export const recordedAs = (actor: StaffActor): StateActor => ({ by: 'staff', id: actor.staffId });

/** Creates a policy for a client within reach, as a client's own create does, with what staff may do besides. */
export async function sellPolicy(ctx: HandlerContext, actor: StaffActor, clientId: string, body: PolicyCreateRequest): Promise<Policy> {
  const seller = await staffSeller(ctx.scope, actor, clientId, body);
  return issuePolicy(ctx, clientId, body, recordedAs(actor), seller);
}

/** Prices a policy for a client within reach exactly as `sellPolicy` would, writing nothing. */
export async function quoteForClient(ctx: HandlerContext, actor: StaffActor, clientId: string, body: PolicyCreateRequest): Promise<Quote> {
  const seller = await staffSeller(ctx.scope, actor, clientId, body);
  return quotePolicy(ctx, clientId, body, seller);
}

/** Policies (joined to their client) of the clients within `reacher`'s reach. */
const inReach = <Q extends SelectQueryBuilder<any, any, any>>(policies: Q, reacher: Reacher): Q =>
  policies.where(originatedInReach('client.originating_staff_id', reacher)) as Q;

/** The policies of clients within the caller's reach (callers add filters, order and page). */
const policiesInReach = (scope: TenantScope, actor: StaffActor) => inReach(policyQuery(scope), actor);

/** A policy of a client within reach, with its assets, or 404. */
export async function policyForStaff(scope: TenantScope, actor: StaffActor, id: string): Promise<Policy> {
  const row = await ownRow(withPolicyColumns(policiesInReach(scope, actor)), 'policies', id, 'Policy');
  return toPolicy(row, (await assetsOf(scope, [row.id])).get(row.id));
}

/** Renews a policy of a client within reach, credited to the caller. */
export async function renewForClient(ctx: HandlerContext, actor: StaffActor, policyId: string, body: PolicyRenewal): Promise<Policy> {
  const policy = await policyForStaff(ctx.scope, actor, policyId);
  await clientToSellTo(ctx.scope, actor, policy.client.id);
  return issueRenewal(ctx, policy.client.id, policyId, body, recordedAs(actor), sellerOf(actor, actor.staffId));
}

/** What of a staff member a list's reach reads, as values. */
interface ReachValues { reacherId: string; departmentId: string | null; branchId: string | null }

/**
 * The policies of the clients within reach, filtered (by client and staff member credited too),
 * newest first: a page, all, or an export. A page's queries are built once per reach and set of
 * filters; the reach's subject (the member, their department or branch) is a value.
 */
export async function listPoliciesForStaff(ctx: Pick<HandlerContext, 'clock' | 'scope'>, actor: StaffActor, query: PolicyListQuery) {
  const shaped = shapedPolicyList<ReachValues>(ctx.scope, query, {
    name: 'staff policies', shape: actor.reach,
    values: { reacherId: actor.staffId, departmentId: actor.departmentId, branchId: actor.branchId },
    // Reach is by the client's originating staff member (a join): counted on the joined rows.
    countsPoliciesAlone: false,
    narrow: (policies, v, reach) => {
      // Getters: the reach reads only what it needs, and a compiled query's values must all be used.
      const reacher: Reacher = {
        reach: reach as Reacher['reach'],
        get staffId() { return v.reacherId; }, get tenantId() { return v.tenantId; },
        get departmentId() { return v.departmentId; }, get branchId() { return v.branchId; },
      };
      return inReach(policies, reacher);
    },
  });
  return answerPolicyList(ctx, { shaped }, query, assetsWanted(query));
}
