import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import { sql, type RawBuilder } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { StaffCaller } from '../../platform/actor.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import type { StaffPosition } from '../../platform/db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { pageOf } from '../../platform/pagination.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { issueCode, retireCodes, spendCode, staffContactCode, tryCode } from '../accounts/codes.js';
import { endSessionsOf } from '../accounts/session.js';
import { emit } from '../events/catalogue.js';
import { staffAccounts } from './account.js';
import { staffFullName } from './names.js';
import { departmentForStaff } from './organisation.js';
import { POSITIONS } from './permissions.js';
import { staffInReach } from './reach.js';
import { staffQuery, staffTables, toStaff, type Staff } from './view.js';

/**
 * Staff members as managers see them: listed and read within the caller's reach (`staffInReach`:
 * their department, their branch or the whole company), added, changed, deactivated and activated
 * by managers. An executive manager manages everyone; a branch manager (reach `BRANCH`) the staff
 * of their own branch below branch manager, in their branch's departments. Nobody deactivates
 * themselves or changes their own position. Every change records who made it and when.
 *
 * Controls: the company's last active executive manager is never deactivated nor demoted (counted
 * under a lock on the active executive managers, so two of them removing each other at once cannot
 * both succeed); a member comes back only through someone at or above the position of whoever
 * deactivated them; a new e-mail or phone number for another member waits, as a code sent to it,
 * until the member confirms it (`confirmContactChange`), so no manager takes an account over by
 * pointing it at an address of their own.
 */

type Schemas = components['schemas'];
type StaffListQuery = {
  page?: number; limit?: number; departmentId?: string; branchId?: string; position?: StaffPosition;
  type?: Schemas['StaffType']; isActive?: boolean; search?: string;
};

/** The positions a branch manager may give and manage: below their own. */
const BELOW_BRANCH_MANAGER: readonly StaffPosition[] = ['LEVEL_OFFICER', 'HEAD_OF_DEPARTMENT'];

const UNIQUE_FIELDS: Record<string, { field: string; code: 'EMAIL_TAKEN' | 'PHONE_NUMBER_TAKEN' | 'STAFF_NO_TAKEN' }> = {
  staff_tenant_email_key: { field: 'body.email', code: 'EMAIL_TAKEN' },
  staff_tenant_phone_key: { field: 'body.phoneNumber', code: 'PHONE_NUMBER_TAKEN' },
  staff_tenant_staff_no_key: { field: 'body.staffNo', code: 'STAFF_NO_TAKEN' },
};

/** A unique email, phone number or staff number taken by another staff member: 409 naming the field. */
function takenField(error: unknown) {
  const taken = UNIQUE_FIELDS[violatedUniqueConstraint(error) ?? ''];
  return taken ? conflict(`${taken.field} already belongs to another staff member`, taken.code) : undefined;
}

const departmentRequired = () => badRequest('body.departmentId is required unless body.position is EXECUTIVE_MANAGER');

/** `%` and `_` typed by the caller match themselves. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of the staff the caller reaches, by last and first name, filtered as asked. */
export async function staffPage(scope: TenantScope, by: StaffCaller, query: StaffListQuery) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 100;
  const conditions: RawBuilder<boolean>[] = [staffInReach('staff.id', by)];
  if (query.departmentId !== undefined) conditions.push(sql<boolean>`staff.department_id = ${query.departmentId}`);
  if (query.branchId !== undefined) conditions.push(sql<boolean>`departments.branch_id = ${query.branchId}`);
  if (query.position !== undefined) conditions.push(sql<boolean>`staff.position = ${query.position}`);
  if (query.type !== undefined) conditions.push(sql<boolean>`staff.type = ${query.type}`);
  if (query.isActive !== undefined) conditions.push(sql<boolean>`staff.is_active = ${query.isActive}`);
  if (query.search !== undefined) {
    const pattern = likePattern(query.search.trim());
    conditions.push(sql<boolean>`(lower(concat_ws(' ', staff.first_name, staff.other_names, staff.last_name)) like ${pattern} or lower(staff.email) like ${pattern})`);
  }
  const where = sql.join(conditions, sql` and `);
  const { offset, paginator } = await pageOf(staffTables(scope).where(sql<boolean>`${where}`), page, limit);
  const rows = await staffQuery(scope).where(sql<boolean>`${where}`)
    .orderBy('staff.last_name').orderBy('staff.first_name').orderBy('staff.id')
    .limit(limit).offset(offset).execute();
  return { data: rows.map(toStaff), paginator };
}

async function memberRow(scope: TenantScope, by: StaffCaller, id: string) {
  const row = await staffQuery(scope).where('staff.id', '=', id).where(staffInReach('staff.id', by)).executeTakeFirst();
  if (!row) throw notFound('Staff member');
  return row;
}

/** A staff member the caller reaches; anyone else is not found. */
export async function findStaffMember(scope: TenantScope, by: StaffCaller, id: string): Promise<Staff> {
  return toStaff(await memberRow(scope, by, id));
}

/** A branch manager may give only positions below their own. */
function checkPositionGiven(by: StaffCaller, position: StaffPosition) {
  if (by.reach !== 'TENANT' && !BELOW_BRANCH_MANAGER.includes(position)) {
    throw forbidden(`A ${by.position} may not make anyone a ${position} (body.position): only an executive manager may`, 'NOT_PERMITTED');
  }
}

/** A branch manager may manage only staff below their own position (and change themselves). */
function checkManages(by: StaffCaller, target: { id: string; position: StaffPosition }) {
  if (by.reach !== 'TENANT' && target.id !== by.staffId && !BELOW_BRANCH_MANAGER.includes(target.position)) {
    throw forbidden(`A ${by.position} may not manage a ${target.position}: only an executive manager may`, 'NOT_PERMITTED');
  }
}

/** Where a position stands: a higher number is more senior. */
const rank = (position: StaffPosition) => POSITIONS.indexOf(position);

/**
 * Refuses to leave the company with no active executive manager: locks its active executive
 * managers (in one order, so two callers never deadlock) and counts them in the caller's
 * transaction, so a concurrent removal waits and then sees this one's outcome.
 */
async function keepAnExecutiveManager(scope: TransactionScope, target: { id: string; first_name: string; other_names: string | null; last_name: string }) {
  const active = await scope.selectFrom('staff').select('id')
    .where('position', '=', 'EXECUTIVE_MANAGER').where('is_active', '=', true)
    .orderBy('id').forUpdate().execute();
  if (active.length <= 1 && active.some((row) => row.id === target.id)) {
    throw conflict(`${staffFullName(target)} is the company's last active executive manager: make another staff member one first`, 'LAST_EXECUTIVE_MANAGER');
  }
}

/**
 * Adds a staff member (`staff.created`). With a password they can log in at once; without one they are sent a reset
 * code (the staff reset code, by email and, with a phone number, by SMS) to set their own through `POST /staff/auth/password/reset`.
 */
export async function createStaffMember(ctx: HandlerContext, by: StaffCaller, body: Schemas['StaffMemberInput']): Promise<Staff> {
  const now = ctx.clock.now();
  checkPositionGiven(by, body.position);
  if (body.position !== 'EXECUTIVE_MANAGER' && body.departmentId === undefined) throw departmentRequired();
  if (body.departmentId !== undefined) await departmentForStaff(ctx.scope, by, body.departmentId);
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : null;
  try {
    return await ctx.scope.transaction(async (scope) => {
      const row = await scope.insertInto('staff', {
        email: body.email.trim(), phone_number: body.phoneNumber ?? null, first_name: body.firstName,
        other_names: body.otherNames ?? null, last_name: body.lastName, type: body.type ?? 'NORMAL_STAFF',
        job_title: body.jobTitle ?? null, position: body.position, address: body.address ?? null, staff_no: body.staffNo ?? null,
        gender: body.gender ?? null, date_of_birth: body.dateOfBirth ?? null, department_id: body.departmentId ?? null,
        password_hash: passwordHash, created_by_staff_id: by.staffId, updated_by_staff_id: by.staffId, created_at: now, updated_at: now,
      }).returning(['id', 'email', 'phone_number']).executeTakeFirstOrThrow();
      if (passwordHash === null) {
        // By email, and by SMS too when there is a phone: agents in the field often read only their phone.
        const welcome = { template: MESSAGE_TEMPLATES.staffWelcome, vars: { username: row.email } };
        await issueCode({ ...ctx, scope }, row.id, staffAccounts.resetCode, now, [
          { channel: 'email', recipient: row.email, ...welcome },
          ...(row.phone_number ? [{ channel: 'sms' as const, recipient: row.phone_number, ...welcome }] : []),
        ]);
      }
      await emit(ctx, scope, { by: 'staff', id: by.staffId }, { type: 'staff.created', object: { type: 'staff', id: row.id }, data: {} }, now);
      return toStaff(await staffQuery(scope).where('staff.id', '=', row.id).executeTakeFirstOrThrow());
    });
  } catch (error) {
    throw takenField(error) ?? error;
  }
}

/** Changes a staff member the caller manages; fields left out stay, nullable ones sent as null are cleared. */
export async function updateStaffMember(ctx: Pick<HandlerContext, 'clock' | 'config' | 'credentials' | 'notifier' | 'scope'>, by: StaffCaller, id: string, body: Schemas['StaffMemberUpdate']): Promise<Staff> {
  const target = await memberRow(ctx.scope, by, id);
  checkManages(by, target);
  if (body.position !== undefined && body.position !== target.position) {
    if (id === by.staffId) throw forbidden('Nobody may change their own position (body.position): ask a manager above you', 'OWN_ACCOUNT');
    checkPositionGiven(by, body.position);
  }
  const position = body.position ?? target.position;
  const departmentId = body.departmentId !== undefined ? body.departmentId : target.department_id;
  if (position !== 'EXECUTIVE_MANAGER' && departmentId === null) throw departmentRequired();
  if (body.departmentId !== undefined && body.departmentId !== null && body.departmentId !== target.department_id) {
    await departmentForStaff(ctx.scope, by, body.departmentId);
  }
  const given = <K extends keyof typeof body>(key: K) => body[key] !== undefined;
  // Another member's new e-mail or phone number waits for its owner to confirm it.
  const pending = id === by.staffId ? [] : pendingContacts(target, body);
  const waits = (channel: 'email' | 'phone') => pending.some((change) => change.channel === channel);
  const now = ctx.clock.now();
  try {
    await ctx.scope.transaction(async (scope) => {
      if (target.position === 'EXECUTIVE_MANAGER' && position !== 'EXECUTIVE_MANAGER') await keepAnExecutiveManager(scope, target);
      await scope.updateTable('staff')
        .set({
          ...(given('email') && !waits('email') && { email: body.email!.trim() }),
          ...(given('phoneNumber') && !waits('phone') && { phone_number: body.phoneNumber }),
          ...(given('firstName') && { first_name: body.firstName }),
          ...(given('otherNames') && { other_names: body.otherNames }),
          ...(given('lastName') && { last_name: body.lastName }),
          ...(given('type') && { type: body.type }),
          ...(given('jobTitle') && { job_title: body.jobTitle }),
          ...(given('position') && { position: body.position }),
          ...(given('address') && { address: body.address }),
          ...(given('staffNo') && { staff_no: body.staffNo }),
          ...(given('gender') && { gender: body.gender }),
          ...(given('dateOfBirth') && { date_of_birth: body.dateOfBirth }),
          ...(given('departmentId') && { department_id: body.departmentId }),
          updated_by_staff_id: by.staffId, updated_at: now,
        })
        .where('id', '=', id).execute();
      for (const change of pending) await requestContactChange({ ...ctx, scope }, by, target, change, now);
    });
  } catch (error) {
    throw takenField(error) ?? error;
  }
  // Its type, position or department decide what its token may do.
  ctx.credentials.forget(credentialTag.staff(id));
  return toStaff(await staffQuery(ctx.scope).where('staff.id', '=', id).executeTakeFirstOrThrow());
}

interface ContactChange { channel: 'email' | 'phone'; target: string; field: 'body.email' | 'body.phoneNumber' }

/** The new e-mail and phone number in a change of someone else (clearing a phone number is no new address). */
function pendingContacts(member: { email: string; phone_number: string | null }, body: Schemas['StaffMemberUpdate']): ContactChange[] {
  const changes: ContactChange[] = [];
  const email = body.email?.trim();
  if (email !== undefined && email.toLowerCase() !== member.email.toLowerCase()) changes.push({ channel: 'email', target: email, field: 'body.email' });
  if (body.phoneNumber != null && body.phoneNumber !== member.phone_number) changes.push({ channel: 'phone', target: body.phoneNumber, field: 'body.phoneNumber' });
  return changes;
}

/**
 * Sends the code that confirms a new e-mail or phone number to that address, replacing any earlier
 * one of the channel, and records who asked; an address another member holds is refused at once.
 */
async function requestContactChange(
  ctx: Pick<HandlerContext, 'config' | 'notifier'> & { scope: TransactionScope }, by: StaffCaller, member: { id: string; email: string },
  change: ContactChange, now: Date,
) {
  const holder = change.channel === 'email'
    ? ctx.scope.selectFrom('staff').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', change.target.toLowerCase()))
    : ctx.scope.selectFrom('staff').select('id').where('phone_number', '=', change.target);
  if (await holder.where('id', '!=', member.id).executeTakeFirst()) {
    throw conflict(`${change.field} already belongs to another staff member`, change.channel === 'email' ? 'EMAIL_TAKEN' : 'PHONE_NUMBER_TAKEN');
  }
  const requester = await ctx.scope.selectFrom('staff').select(['first_name', 'other_names', 'last_name']).where('id', '=', by.staffId).executeTakeFirstOrThrow();
  const kind = staffContactCode(change.channel);
  await issueCode(ctx, member.id, kind, now, {
    channel: change.channel === 'email' ? 'email' : 'sms', recipient: change.target, template: MESSAGE_TEMPLATES.staffContactChangeCode,
    vars: { requestedBy: staffFullName(requester), username: member.email },
  }, change.target);
  await ctx.scope.updateTable('verification_codes').set({ requested_by_staff_id: by.staffId })
    .where('staff_id', '=', member.id).where('channel', '=', change.channel).where('consumed_at', 'is', null).execute();
}

/** The confirmed address taken by another member meanwhile: 409 naming it. */
function contactTaken(error: unknown) {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === 'staff_tenant_email_key') return conflict('The new e-mail already belongs to another staff member', 'EMAIL_TAKEN');
  if (constraint === 'staff_tenant_phone_key') return conflict('The new phone number already belongs to another staff member', 'PHONE_NUMBER_TAKEN');
  return undefined;
}

const invalidContactCode = () => badRequest('The verification code is invalid or has expired', 'INVALID_VERIFICATION_CODE');

/**
 * The signed-in member confirms the new e-mail or phone number a manager set, with the code sent to
 * it: only then does it become theirs (and where sign-in names and reset codes go).
 */
export async function confirmContactChange(
  ctx: Pick<HandlerContext, 'clock' | 'config' | 'credentials' | 'scope'>, staffId: string, channel: 'email' | 'phone', code: string,
): Promise<Staff> {
  const now = ctx.clock.now();
  const kind = staffContactCode(channel);
  const attempt = await tryCode(ctx, staffId, kind, code, now, invalidContactCode);
  try {
    return await ctx.scope.transaction(async (scope) => {
      await spendCode(scope, kind, attempt.id, now, invalidContactCode);
      await scope.updateTable('staff')
        .set({ ...(channel === 'email' ? { email: attempt.target! } : { phone_number: attempt.target! }), updated_by_staff_id: staffId, updated_at: now })
        .where('id', '=', staffId).execute();
      return toStaff(await staffQuery(scope).where('staff.id', '=', staffId).executeTakeFirstOrThrow());
    });
  } catch (error) {
    throw contactTaken(error) ?? error;
  } finally {
    ctx.credentials.forget(credentialTag.staff(staffId));
  }
}

/**
 * Deactivates a staff member the caller manages: they cannot log in, every token they hold stops
 * at once (the session version moves on, their refresh tokens are revoked) and their live reset codes are retired, in one
 * transaction, which keeps who deactivated them and their position. Nobody deactivates
 * themselves, nor the company's last active executive manager; an inactive member stays as they
 * are (no event; else `staff.deactivated`).
 */
export async function deactivateStaffMember(ctx: Pick<HandlerContext, 'clock' | 'credentials' | 'scope' | 'reactions' | 'eventSnapshots'>, by: StaffCaller, id: string): Promise<Staff> {
  const target = await memberRow(ctx.scope, by, id);
  if (id === by.staffId) throw forbidden('Nobody may deactivate themselves: ask another manager', 'OWN_ACCOUNT');
  checkManages(by, target);
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (scope) => {
    if (target.position === 'EXECUTIVE_MANAGER') await keepAnExecutiveManager(scope, target);
    const changed = await scope.updateTable('staff')
      .set({
        is_active: false, session_version: sql`session_version + 1`, updated_by_staff_id: by.staffId, updated_at: now,
        deactivated_by_staff_id: by.staffId, deactivated_by_position: by.position, deactivated_at: now,
      })
      .where('id', '=', id).where('is_active', '=', true).executeTakeFirst();
    if (changed.numUpdatedRows > 0n) {
      await retireCodes(scope, id, staffAccounts.resetCode, now);
      await endSessionsOf(scope, { kind: 'staff', id }, 'DEACTIVATED', now);
      await emit(ctx, scope, { by: 'staff', id: by.staffId }, { type: 'staff.deactivated', object: { type: 'staff', id }, data: {} }, now,
        { previous: { isActive: true } });
    }
    return toStaff(await staffQuery(scope).where('staff.id', '=', id).executeTakeFirstOrThrow());
  }).finally(() => ctx.credentials.forget(credentialTag.staff(id)));
}

/**
 * Lets a deactivated staff member the caller manages log in again; their old tokens stay retired.
 * Only someone at or above the position of whoever deactivated them may.
 */
export async function activateStaffMember(ctx: Pick<HandlerContext, 'clock' | 'credentials' | 'scope'>, by: StaffCaller, id: string): Promise<Staff> {
  const target = await memberRow(ctx.scope, by, id);
  checkManages(by, target);
  const { deactivated_by_position: stoppedBy } = await ctx.scope.selectFrom('staff').select('deactivated_by_position').where('id', '=', id).executeTakeFirstOrThrow();
  if (!target.is_active && stoppedBy && rank(by.position) < rank(stoppedBy)) {
    throw forbidden(`${staffFullName(target)} was deactivated by a ${stoppedBy}: only a ${stoppedBy} or above may activate them again`, 'REACTIVATION_NOT_PERMITTED');
  }
  await ctx.scope.updateTable('staff')
    .set({ is_active: true, updated_by_staff_id: by.staffId, updated_at: ctx.clock.now(), deactivated_by_staff_id: null, deactivated_by_position: null, deactivated_at: null })
    .where('id', '=', id).where('is_active', '=', false)
    // Whoever deactivated them meanwhile is checked as above: the row moves only as it was read.
    .where((eb) => (stoppedBy ? eb('deactivated_by_position', '=', stoppedBy) : eb('deactivated_by_position', 'is', null)))
    .execute();
  ctx.credentials.forget(credentialTag.staff(id));
  return toStaff(await staffQuery(ctx.scope).where('staff.id', '=', id).executeTakeFirstOrThrow());
}
