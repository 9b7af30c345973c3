import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo } from '../helpers/clients.js';
import { sandboxBranch, sandboxDepartment, sandboxStaff, staffSession } from '../helpers/staff.js';
import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { clientInReach, originatedInReach, staffInReach } from '../../server/domain/staff/reach.js';

/**
 * The staff administration controls (issue 27): the company always keeps an active executive
 * manager, even under concurrent calls; a member comes back only through someone at or above the
 * one who stopped them; another member's e-mail or phone changes only once its owner confirms a
 * code sent to the new address; the operator restores a company's executive manager, with a reason.
 */

let h: Harness;
const tokens: Record<string, string> = {};
const RETAIL_SALES = sandboxDepartment('Retail Sales').id;
const OPERATOR = { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY };
const EXEC = sandboxStaff('exec');

beforeAll(async () => {
  h = await createHarness();
  for (const handle of ['exec', 'branch.manager', 'head.sales', 'officer']) tokens[handle] = (await staffSession(h, handle)).token;
});
afterAll(async () => { await h.close(); });

function call(who: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return h.call({ method, url: `/api/v1${url}`, token: tokens[who] ?? who, ...(payload && { payload }) });
}

/** A token for a staff member made in the test, signed as a login would sign it. */
async function tokenOf(id: string) {
  const { session_version: sessionVersion } = await h.db.selectFrom('staff').select('session_version').where('id', '=', id).executeTakeFirstOrThrow();
  return (await h.app.services.signStaffAccessToken({ tenantId: h.tenantId, staffId: id, sessionVersion })).token;
}

let made = 0;
async function newMember(position: string, departmentId: string | null = RETAIL_SALES) {
  made += 1;
  const res = await call('exec', 'POST', '/staff/members', {
    email: `member${made}@sandbox.coverline.example`, firstName: 'Ama', lastName: `Member${made}`, position,
    ...(departmentId && { departmentId }), password: 'Member-Pass-2026',
  });
  expect(res.statusCode).toBe(201);
  const id: string = res.json().data.id;
  tokens[id] = await tokenOf(id);
  return { id, email: res.json().data.email as string };
}

async function activeExecutives() {
  return (await h.db.selectFrom('staff').select('id').where('tenant_id', '=', h.tenantId)
    .where('position', '=', 'EXECUTIVE_MANAGER').where('is_active', '=', true).execute()).map((r) => r.id).sort();
}

/** Leaves the sandbox executive manager the company's only active one again. */
async function onlySandboxExecutive() {
  await h.db.updateTable('staff').set({ is_active: false }).where('tenant_id', '=', h.tenantId)
    .where('position', '=', 'EXECUTIVE_MANAGER').where('id', '!=', EXEC.id).execute();
  await h.db.updateTable('staff').set({ is_active: true, position: 'EXECUTIVE_MANAGER' }).where('id', '=', EXEC.id).execute();
  tokens.exec = await tokenOf(EXEC.id);
}

/**
 * Two real API calls at the same moment. On PostgreSQL the company's active executive managers are
 * held locked (another connection) until both calls wait on them, past sign-in and their reads, so
 * each run meets the race at its narrowest (else the second may simply arrive after the first's
 * commit, when its token is already revoked); PGlite has one connection, so there it is Promise.all.
 */
async function atOnce<T>(calls: () => Promise<T>[]): Promise<T[]> {
  if (h.driver !== 'pg') return Promise.all(calls());
  let release!: () => void;
  let locked!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  const lockTaken = new Promise<void>((resolve) => { locked = resolve; });
  const holder = h.db.transaction().execute(async (trx) => {
    await sql`select id from staff where tenant_id = ${h.tenantId} and position = 'EXECUTIVE_MANAGER' and is_active order by id for update`.execute(trx);
    locked();
    await held;
  });
  await lockTaken;
  const answers = Promise.all(calls());
  for (let tries = 0; tries < 200; tries += 1) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(h.db);
    if (rows[0].n >= 2) break;
    await sleep(25);
  }
  release();
  await holder;
  return answers;
}

describe('deactivateStaffMember, updateStaffMember: the last active executive manager stays', () => {
  afterEach(onlySandboxExecutive);

  it('two executive managers deactivating each other at the same moment: one is refused (LAST_EXECUTIVE_MANAGER)', async () => {
    const second = await newMember('EXECUTIVE_MANAGER', null);
    const answers = await atOnce(() => [
      call('exec', 'POST', `/staff/members/${second.id}/deactivate`),
      call(second.id, 'POST', `/staff/members/${EXEC.id}/deactivate`),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('LAST_EXECUTIVE_MANAGER');
    expect(await activeExecutives()).toHaveLength(1);
  });

  it('two executive managers demoting each other at the same moment: one is refused', async () => {
    const second = await newMember('EXECUTIVE_MANAGER', null);
    const demote = { position: 'BRANCH_MANAGER', departmentId: RETAIL_SALES };
    const answers = await atOnce(() => [
      call('exec', 'PATCH', `/staff/members/${second.id}`, demote),
      call(second.id, 'PATCH', `/staff/members/${EXEC.id}`, demote),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('LAST_EXECUTIVE_MANAGER');
    expect(await activeExecutives()).toHaveLength(1);
  });

  it('one deactivating while the other demotes: one is refused', async () => {
    const second = await newMember('EXECUTIVE_MANAGER', null);
    const answers = await atOnce(() => [
      call('exec', 'POST', `/staff/members/${second.id}/deactivate`),
      call(second.id, 'PATCH', `/staff/members/${EXEC.id}`, { position: 'BRANCH_MANAGER', departmentId: RETAIL_SALES }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await activeExecutives()).toHaveLength(1);
  });

  it('with two active, one may deactivate or demote the other, and the other executive managers are counted only while active', async () => {
    const second = await newMember('EXECUTIVE_MANAGER', null);
    const demoted = await call('exec', 'PATCH', `/staff/members/${second.id}`, { position: 'HEAD_OF_DEPARTMENT', departmentId: RETAIL_SALES });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json().data.position).toBe('HEAD_OF_DEPARTMENT');
    expect(await activeExecutives()).toEqual([EXEC.id]);
  });
});

describe('activateStaffMember: reactivated only by someone at or above the one who deactivated', () => {
  it('a branch manager may not reactivate an officer an executive manager deactivated (403 REACTIVATION_NOT_PERMITTED)', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    expect((await call('exec', 'POST', `/staff/members/${officer.id}/deactivate`)).statusCode).toBe(200);
    const refused = await call('branch.manager', 'POST', `/staff/members/${officer.id}/activate`);
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 403, code: 'REACTIVATION_NOT_PERMITTED' });
    expect(refused.json().message).toMatch(/EXECUTIVE_MANAGER/);
    const row = await h.db.selectFrom('staff').select(['is_active', 'deactivated_by_staff_id', 'deactivated_by_position']).where('id', '=', officer.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ is_active: false, deactivated_by_staff_id: EXEC.id, deactivated_by_position: 'EXECUTIVE_MANAGER' });

    const back = await call('exec', 'POST', `/staff/members/${officer.id}/activate`);
    expect(back.statusCode).toBe(200);
    expect(back.json().data.isActive).toBe(true);
    const after = await h.db.selectFrom('staff').select(['deactivated_by_staff_id', 'deactivated_by_position']).where('id', '=', officer.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ deactivated_by_staff_id: null, deactivated_by_position: null });
  });

  it('a branch manager reactivates whom a branch manager deactivated', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    expect((await call('branch.manager', 'POST', `/staff/members/${officer.id}/deactivate`)).statusCode).toBe(200);
    const back = await call('branch.manager', 'POST', `/staff/members/${officer.id}/activate`);
    expect(back.statusCode).toBe(200);
    expect(back.json().data.isActive).toBe(true);
  });
});

describe('updateStaffMember, confirmStaffContactChange: another member\'s e-mail or phone changes once they confirm', () => {
  it('a branch manager changing a subordinate\'s e-mail cannot take the account over with a reset code', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    const stolen = 'attacker@example.com';
    const changed = await call('branch.manager', 'PATCH', `/staff/members/${officer.id}`, { email: stolen, jobTitle: 'Sales Officer' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ email: officer.email, jobTitle: 'Sales Officer' });
    // The new address is sent a code for its owner to confirm with; nothing else changes.
    await codeSentTo(h, stolen, 'staff-contact-change-code');
    const reset = await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username: stolen } });
    expect(reset.statusCode).toBe(200);
    const toStolen = await h.db.selectFrom('outbox').select('template').where('recipient', '=', stolen).execute();
    expect(toStolen.map((m) => m.template)).toEqual(['staff-contact-change-code']);
    await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username: officer.email } });
    await codeSentTo(h, officer.email, 'password-reset-code');
  });

  it('the member confirms with the code sent to the new address: a wrong code is refused, the right one changes it', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    const address = `new.${officer.email}`;
    expect((await call('exec', 'PATCH', `/staff/members/${officer.id}`, { email: address })).statusCode).toBe(200);
    const code = await codeSentTo(h, address, 'staff-contact-change-code');
    const wrong = await call(officer.id, 'POST', '/staff/me/contact-changes/confirm', { channel: 'email', code: code === '000000' ? '111111' : '000000' });
    expect({ status: wrong.statusCode, code: wrong.json().code }).toEqual({ status: 400, code: 'INVALID_VERIFICATION_CODE' });
    // Someone else's token (the manager's) has no pending change of its own.
    expect((await call('exec', 'POST', '/staff/me/contact-changes/confirm', { channel: 'email', code })).statusCode).toBe(400);
    const confirmed = await call(officer.id, 'POST', '/staff/me/contact-changes/confirm', { channel: 'email', code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data.email).toBe(address);
    // The code is spent.
    expect((await call(officer.id, 'POST', '/staff/me/contact-changes/confirm', { channel: 'email', code })).statusCode).toBe(400);
  });

  it('a phone number too; changing one\'s own contact takes effect at once', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    expect((await call('branch.manager', 'PATCH', `/staff/members/${officer.id}`, { phoneNumber: '+233209990001' })).json().data.phoneNumber).toBeNull();
    const code = await codeSentTo(h, '+233209990001', 'staff-contact-change-code');
    const confirmed = await call(officer.id, 'POST', '/staff/me/contact-changes/confirm', { channel: 'phone', code });
    expect(confirmed.json().data.phoneNumber).toBe('+233209990001');

    const own = await call('branch.manager', 'PATCH', `/staff/members/${sandboxStaff('branch.manager').id}`, { phoneNumber: '+233209990002' });
    expect(own.json().data.phoneNumber).toBe('+233209990002');
  });

  it('an address another staff member holds is refused at once (409)', async () => {
    const officer = await newMember('LEVEL_OFFICER');
    const taken = await call('exec', 'PATCH', `/staff/members/${officer.id}`, { email: sandboxStaff('head.sales').email.toUpperCase() });
    expect({ status: taken.statusCode, code: taken.json().code }).toEqual({ status: 409, code: 'EMAIL_TAKEN' });
  });
});

describe('restoreExecutiveManager: POST /operator/companies/{companyId}/executive-managers/restore', () => {
  const restore = (companyId: string, payload: object) =>
    h.call({ method: 'POST', url: `/api/v1/operator/companies/${companyId}/executive-managers/restore`, apiKey: null, headers: OPERATOR, payload });

  it('reactivates and promotes a member, recording the reason', async () => {
    const head = await newMember('HEAD_OF_DEPARTMENT');
    await h.db.updateTable('staff').set({ is_active: false }).where('id', '=', head.id).execute();
    const res = await restore(h.tenantId, { staffId: head.id, reason: 'Both executive managers left; the board named this head of sales (ticket 4411).' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: head.id, isActive: true, position: 'EXECUTIVE_MANAGER' });
    const recorded = await h.db.selectFrom('executive_manager_restorations').selectAll().where('staff_id', '=', head.id).execute();
    expect(recorded).toMatchObject([{ tenant_id: h.tenantId, reason: 'Both executive managers left; the board named this head of sales (ticket 4411).', was_active: false, was_position: 'HEAD_OF_DEPARTMENT' }]);
    const signedIn = await tokenOf(head.id);
    expect((await h.call({ method: 'GET', url: '/api/v1/staff/branches', token: signedIn })).statusCode).toBe(200);
  });

  it('refuses a member of another company (404), and a missing reason (400)', async () => {
    const head = await newMember('HEAD_OF_DEPARTMENT');
    expect((await restore(h.otherTenantId, { staffId: head.id, reason: 'Wrong company, on purpose.' })).statusCode).toBe(404);
    expect((await restore(h.tenantId, { staffId: head.id })).statusCode).toBe(400);
  });
});

describe('reach conditions (server/domain/staff/reach.ts) name the caller\'s company in every subquery', () => {
  // Rows of another company that point at the sandbox's department (ids are unique, so only a
  // direct write makes them): with no outer tenant condition, a reach must still leave them out.
  it('staffInReach, originatedInReach and clientInReach keep out another company\'s staff and clients', async () => {
    const foreign = await h.db.insertInto('staff').values({
      tenant_id: h.otherTenantId, email: 'stray@other-tenant.example', first_name: 'Stray', last_name: 'Member', position: 'LEVEL_OFFICER', department_id: RETAIL_SALES,
    }).returning('id').executeTakeFirstOrThrow();
    const client = await h.db.insertInto('clients').values({
      tenant_id: h.otherTenantId, type: 'INDIVIDUAL', first_name: 'Stray', last_name: 'Client', country: 'GH', originating_staff_id: foreign.id,
    } as never).returning('id').executeTakeFirstOrThrow();
    // A client of the other company nobody originated: in every department's reach but for the company.
    const walkIn = await h.db.insertInto('clients').values({
      tenant_id: h.otherTenantId, type: 'INDIVIDUAL', first_name: 'Walk', last_name: 'In', country: 'GH',
    } as never).returning('id').executeTakeFirstOrThrow();
    const head = sandboxStaff('head.sales');
    const branchId = sandboxBranch('Accra Head Office').id;
    for (const reach of ['DEPARTMENT', 'BRANCH'] as const) {
      const actor = { staffId: head.id, tenantId: h.tenantId, reach, departmentId: RETAIL_SALES, branchId };
      const staff = await h.db.selectFrom('staff').select('id').where(staffInReach('staff.id', actor)).execute();
      expect(staff.map((s) => s.id)).toContain(head.id);
      expect(staff.map((s) => s.id)).not.toContain(foreign.id);
      const originated = await h.db.selectFrom('clients').select('id').where('id', '=', client.id).where(originatedInReach('clients.originating_staff_id', actor)).execute();
      expect({ reach, originated }).toEqual({ reach, originated: [] });
      const reached = await h.db.selectFrom('clients as x').select('x.id').where('x.id', 'in', [client.id, walkIn.id]).where(clientInReach('x.id', actor)).execute();
      expect({ reach, reached }).toEqual({ reach, reached: [] });
    }
  });
});
