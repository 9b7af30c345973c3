import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import { sql } from 'kysely';
import type { components, operations } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import type { ClientRow } from '../../platform/db/schema.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { consume, LIMITS } from '../../platform/rate-limit.js';
import { containsPattern, createdOnDays } from '../../platform/filters.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { contactFor } from '../accounts/account.js';
import { issueCode } from '../accounts/codes.js';
import { endSessionsOf } from '../accounts/session.js';
import { originatedInReach, staffInReach } from '../staff/reach.js';
import { clientAccounts, clientFullName } from './account.js';
import { createClient } from './create.js';
import { recordClientChange } from './events.js';
import { writeProfile } from './profile.js';
import { toStaffClients, type StaffClient } from './staff-view.js';

/**
 * Clients as staff work with them: opening accounts, the list and a client by id, profile changes
 * and reassignment, deactivation. Every query goes through the caller's reach
 * (`originatedInReach` over `clients.originating_staff_id`), so a client outside it is absent from
 * lists and answers 404 by id, as an unknown id does.
 */

type Reacher = Pick<StaffActor, 'staffId' | 'tenantId' | 'reach' | 'departmentId' | 'branchId'>;
type CreateBody = components['schemas']['StaffClientCreate'];
type UpdateBody = components['schemas']['StaffClientUpdate'];
type ListQuery = NonNullable<operations['listStaffClients']['parameters']['query']>;

const clientNotFound = () => notFound('Client');

/** The live clients of the tenant within the caller's reach. */
function clientsInReach(scope: TenantScope, actor: Reacher) {
  return scope.selectFrom('clients').where('clients.deleted_at', 'is', null)
    .where(originatedInReach('clients.originating_staff_id', actor));
}

/** A client within reach, locked for a change when `forUpdate`; 404 otherwise. */
export async function reachableClient(scope: TenantScope, actor: Reacher, id: string, forUpdate = false): Promise<ClientRow> {
  const client = await clientsInReach(scope, actor).selectAll('clients').where('clients.id', '=', id)
    .$if(forUpdate, (qb) => qb.forUpdate()).executeTakeFirst();
  if (!client) throw clientNotFound();
  return client;
}

/**
 * The staff member a client may be credited to by this caller: an agent only itself (403 for
 * anyone else); others an active staff member within their reach (404 otherwise).
 */
export async function creditableStaff(scope: TenantScope, actor: Reacher, staffId: string): Promise<string> {
  if (staffId === actor.staffId) return staffId;
  if (actor.reach === 'OWN') throw forbidden('body.originatingStaffId: an agent may not credit a client to another staff member', 'NOT_PERMITTED');
  const member = await scope.selectFrom('staff').select('staff.id').where('staff.id', '=', staffId).where('staff.is_active', '=', true)
    .where(staffInReach('staff.id', actor)).executeTakeFirst();
  if (!member) throw new ApiError(404, 'NOT_FOUND', 'body.originatingStaffId names no active staff member within your reach');
  return member.id;
}

/** The view of one client, read again after a change. */
async function viewOf(ctx: Pick<HandlerContext, 'clock'>, scope: TenantScope, row: ClientRow): Promise<StaffClient> {
  const [view] = await toStaffClients(scope, [row], ctx.clock.now());
  return view;
}

/**
 * A staff member opens a client account (as at signup, with no password: staff never choose one):
 * created by the caller, credited to `originatingStaffId` or the caller. The client is sent a code
 * to set its password with the password reset call, in the same transaction as the account; the
 * caller is recorded as having chosen a way into it (`credentials_set_by_staff_id`), so they never
 * approve its payments.
 */
export async function createClientByStaff(ctx: HandlerContext, actor: Reacher, body: CreateBody): Promise<StaffClient> {
  const { originatingStaffId, ...fields } = body;
  return ctx.scope.transaction(async (scope) => {
    const inTransaction = { ...ctx, scope };
    const originator = await creditableStaff(scope, actor, originatingStaffId ?? actor.staffId);
    const row = await createClient(inTransaction, fields, { createdBy: { by: 'staff', id: actor.staffId }, originatingStaffId: originator });
    await sendSetPasswordCode(inTransaction, row);
    return viewOf(ctx, scope, row);
  });
}

/** A code the client sets its first password with (`POST /auth/password/reset`), by email, else by SMS. */
async function sendSetPasswordCode(ctx: Pick<HandlerContext, 'clock' | 'config' | 'notifier' | 'scope' | 'tenant'>, client: ClientRow) {
  const username = client.email ?? client.phone_number!;
  await issueCode(ctx, client.id, clientAccounts.resetCode, ctx.clock.now(), {
    ...contactFor(client), template: MESSAGE_TEMPLATES.clientSetPasswordCode, vars: { username },
  });
}

/** One page of the clients within reach, newest first, narrowed by the list's filters. */
export async function staffClientPage(ctx: Pick<HandlerContext, 'clock' | 'scope'>, actor: Reacher, query: ListQuery) {
  const search = query.search === undefined ? undefined : containsPattern(query.search);
  const name = sql`concat_ws(' ', clients.first_name, clients.other_names, clients.last_name, clients.company_name)`;
  const filtered = clientsInReach(ctx.scope, actor)
    .$if(search !== undefined, (qb) => qb.where(sql<boolean>`(${name} ilike ${search} or clients.email ilike ${search} or clients.phone_number ilike ${search})`))
    .$if(query.clientType !== undefined, (qb) => qb.where('clients.type', '=', query.clientType!))
    .$if(query.isActive !== undefined, (qb) => qb.where('clients.is_active', '=', query.isActive!))
    .$if(query.originatingStaffId !== undefined, (qb) => qb.where('clients.originating_staff_id', '=', query.originatingStaffId!))
    .where(createdOnDays('clients.created_at', query));
  const { rows, paginator } = await newestFirstPage(filtered, filtered.selectAll('clients'), 'clients', { page: query.page!, limit: query.limit!, after: query.after });
  return { data: await toStaffClients(ctx.scope, rows, ctx.clock.now()), paginator };
}

/** A client within reach. */
export async function staffClient(ctx: Pick<HandlerContext, 'clock' | 'scope'>, actor: Reacher, id: string): Promise<StaffClient> {
  return viewOf(ctx, ctx.scope, await reachableClient(ctx.scope, actor, id));
}

/** Changes a client's profile fields (as the client's own update does) and, for managers, who it is credited to. */
export async function updateClientByStaff(ctx: HandlerContext, actor: Reacher, id: string, body: UpdateBody): Promise<StaffClient> {
  const { originatingStaffId, ...update } = body;
  return ctx.scope.transaction(async (scope) => {
    const client = await reachableClient(scope, actor, id, true);
    const reassigned = originatingStaffId === undefined || originatingStaffId === client.originating_staff_id
      ? {} : { originating_staff_id: await creditableStaff(scope, actor, originatingStaffId) };
    const row = await writeProfile({ ...ctx, scope }, client, update, reassigned, { by: 'staff', id: actor.staffId });
    return viewOf(ctx, scope, row);
  });
}

/** Deactivates a client: no more logins, every token revoked (session version, refresh tokens), who, when and why kept; `client.deactivated`. */
export async function deactivateClient(ctx: Pick<HandlerContext, 'clock' | 'credentials' | 'scope' | 'reactions' | 'eventSnapshots'>, actor: Reacher, id: string, reason: string): Promise<StaffClient> {
  return ctx.scope.transaction(async (scope) => {
    const client = await reachableClient(scope, actor, id, true);
    if (!client.is_active) throw conflict('The client is already deactivated', 'CLIENT_ALREADY_INACTIVE');
    const now = ctx.clock.now();
    const row = await scope.updateTable('clients').set({
      is_active: false, deactivated_at: now, deactivated_by_staff_id: actor.staffId, deactivation_reason: reason,
      session_version: sql`session_version + 1`, updated_at: now,
    }).where('id', '=', client.id).returningAll().executeTakeFirstOrThrow();
    await endSessionsOf(scope, { kind: 'client', id: client.id }, 'DEACTIVATED', now);
    await recordClientChange(ctx, scope, { by: 'staff', id: actor.staffId }, 'client.deactivated', client, row, now);
    return viewOf(ctx, scope, row);
  }).finally(() => ctx.credentials.forget(credentialTag.client(id)));
}

/** Makes a deactivated client active again (`client.updated`, its deactivation in `previous`); its old tokens stay revoked. */
export async function activateClient(ctx: Pick<HandlerContext, 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>, actor: Reacher, id: string): Promise<StaffClient> {
  return ctx.scope.transaction(async (scope) => {
    const client = await reachableClient(scope, actor, id, true);
    if (client.is_active) throw conflict('The client is already active', 'CLIENT_ALREADY_ACTIVE');
    const now = ctx.clock.now();
    const row = await scope.updateTable('clients').set({
      is_active: true, deactivated_at: null, deactivated_by_staff_id: null, deactivation_reason: null, updated_at: now,
    }).where('id', '=', client.id).returningAll().executeTakeFirstOrThrow();
    await recordClientChange(ctx, scope, { by: 'staff', id: actor.staffId }, 'client.updated', client, row, now);
    return viewOf(ctx, scope, row);
  });
}

/**
 * Sends a client within reach who has no password yet (an account staff opened) a new set-up
 * code, replacing the earlier one, at most `LIMITS.verificationSendPerAccount` an hour; answers the
 * channel it went by. A client with a password (or Firebase sign-in) resets it itself.
 */
export async function resendSetUpCode(ctx: HandlerContext, actor: Reacher, id: string): Promise<'email' | 'sms'> {
  const client = await reachableClient(ctx.scope, actor, id);
  const name = clientFullName(client) || 'The client';
  if (!client.is_active) throw conflict(`Client ${name} is deactivated: reactivate them first`, 'CLIENT_INACTIVE');
  if (client.password_hash !== null || client.firebase_uid !== null) {
    throw conflict(`Client ${name} has set a password already: a forgotten one is reset with POST /auth/password/request-reset`, 'PASSWORD_ALREADY_SET');
  }
  if (!client.email && !client.phone_number) throw badRequest(`Client ${name} has no e-mail or phone number to send a code to`, 'NO_CONTACT');
  await consume(ctx.db, `set-up-code:${ctx.tenant.id}:${client.id}`, LIMITS.verificationSendPerAccount, ctx.clock.now());
  await sendSetPasswordCode(ctx, client);
  return contactFor(client).channel;
}
