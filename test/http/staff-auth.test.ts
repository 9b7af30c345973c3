import { PERMISSIONS } from '../../server/domain/staff/permissions.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo, individualBody, lastMessageTo, signUp } from '../helpers/clients.js';
import { SANDBOX_STAFF_PASSWORD, sandboxBranch, sandboxDepartment, sandboxStaff } from '../helpers/staff.js';

/**
 * Staff sign-in and their own account: login, logout, password change and reset, the profile and
 * the permission table, against the sandbox broker's staff (test/helpers/staff.ts, read from the
 * seed's data file; all with the documented password). A test that changes a staff member's
 * password, or deactivates or locks one, uses a member the other tests leave alone.
 */

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const PASSWORD = SANDBOX_STAFF_PASSWORD;
const RETAIL_SALES = sandboxDepartment('Retail Sales').id;
const HEAD_OFFICE = sandboxBranch('Accra Head Office').id;
const member = (handle: string) => { const { id, email, phoneNumber: phone } = sandboxStaff(handle); return { id, email, phone }; };
const STAFF = {
  exec: member('exec'), branchManager: member('branch.manager'), headSales: member('head.sales'), headClaims: member('head.claims'),
  officer: member('officer'), agent: member('agent'),
};

const INVALID_CREDENTIALS = { statusCode: 401, requestId: expect.any(String), message: 'Invalid email or password', error: 'Unauthorized', code: 'INVALID_CREDENTIALS' };
const INVALID_TOKEN = { statusCode: 401, requestId: expect.any(String), message: 'The access token is invalid, expired or revoked', error: 'Unauthorized', code: 'INVALID_TOKEN' };

const login = (username: string, password = PASSWORD, apiKey?: string) =>
  h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username, password }, apiKey });
const me = (token: string, apiKey?: string) => h.call({ method: 'GET', url: '/api/v1/staff/me', token, apiKey });
const change = (token: string, payload: object) => h.call({ method: 'PATCH', url: '/api/v1/staff/auth/password', token, payload });
const requestReset = (username: string) => h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username } });
const reset = (payload: object) => h.call({ method: 'POST', url: '/api/v1/staff/auth/password/reset', payload });

/** A staff member's access token, by logging in. */
async function tokenOf(email: string, password = PASSWORD): Promise<string> {
  const res = await login(email, password);
  if (res.statusCode !== 200) throw new Error(`staff login failed: ${res.statusCode} ${res.body}`);
  return res.json().data.accessToken;
}

describe('staffLogin: POST /staff/auth/login', () => {
  it('signs in by email in any case and by phone number, answering the profile and a token', async () => {
    for (const username of [STAFF.officer.email, STAFF.officer.email.toUpperCase(), STAFF.officer.phone]) {
      const res = await login(username);
      expect(res.statusCode).toBe(200);
      const { statusCode, success, data } = res.json();
      expect({ statusCode, success }).toEqual({ statusCode: 200, success: true });
      expect(data).toMatchObject({ id: STAFF.officer.id, email: STAFF.officer.email, fullName: 'Abena Osei', tokenType: 'Bearer' });
      expect(data.department).toMatchObject({ id: RETAIL_SALES, branch: { id: HEAD_OFFICE } });
      expect(typeof data.accessToken).toBe('string');
      expect(new Date(data.expiresAt).getTime()).toBeGreaterThan(Date.now());
      expect(data).not.toHaveProperty('passwordHash');
      expect(data).not.toHaveProperty('password_hash');
    }
  });

  it('gives a wrong password and an unknown username the same 401', async () => {
    const wrong = await login(STAFF.officer.email, 'not-the-password');
    const unknown = await login('nobody@sandbox.coverline.example', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID_CREDENTIALS);
    }
  });

  it('does not sign a staff member in through another tenant\'s key, nor a client through the staff login', async () => {
    expect((await login(STAFF.officer.email, PASSWORD, h.otherApiKey)).json()).toEqual(INVALID_CREDENTIALS);
    const { body } = await signUp(h);
    expect((await login(body.email as string, body.password as string)).json()).toEqual(INVALID_CREDENTIALS);
  });

  it('answers a deactivated staff member as a wrong password, and stops their tokens', async () => {
    const token = await tokenOf(STAFF.agent.email);
    await h.db.updateTable('staff').set({ is_active: false }).where('id', '=', STAFF.agent.id).execute();
    const res = await login(STAFF.agent.email);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_CREDENTIALS);
    expect((await me(token)).json()).toEqual(INVALID_TOKEN);
    // Nor is a reset code sent to them; the answer is the same as for anyone.
    const before = await lastMessageTo(h, STAFF.agent.email);
    const answer = await requestReset(STAFF.agent.email);
    expect(answer.statusCode).toBe(200);
    expect(await lastMessageTo(h, STAFF.agent.email)).toEqual(before);
  });

  it('locks an account after 10 failures, apart from any client\'s with the same email, and lets it in after 15 minutes', async () => {
    // A client of the tenant happens to use the staff member's email: its lockout is its own.
    const client = await signUp(h, individualBody({ email: STAFF.branchManager.email }));
    for (let i = 0; i < 10; i += 1) expect((await login(STAFF.branchManager.email, 'wrong-pass')).statusCode).toBe(401);
    const locked = await login(STAFF.branchManager.email);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const clientLogin = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: STAFF.branchManager.email, password: client.body.password } });
    expect(clientLogin.statusCode).toBe(200);
    h.clock.advance(16 * 60 * 1000);
    expect((await login(STAFF.branchManager.email)).statusCode).toBe(200);
  });

  it('validates the body', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username: STAFF.officer.email } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('body.password is required');
  });
});

describe('getStaffProfile: GET /staff/me', () => {
  it('shows the staff member with department and branch, the 10 newest notifications and the unread count', async () => {
    const token = await tokenOf(STAFF.officer.email);
    const base = Date.parse('2026-01-01T00:00:00Z');
    await h.db.insertInto('notifications').values(Array.from({ length: 12 }, (_, i) => ({
      tenant_id: h.tenantId, staff_id: STAFF.officer.id, entity: JSON.stringify(null), title: `Notice ${i}`, body: `Body ${i}`,
      status: i < 3 ? 'read' as const : 'unread' as const, read_at: i < 3 ? new Date(base) : null, created_at: new Date(base + i * 60_000),
    }))).execute();
    const res = await me(token);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      id: STAFF.officer.id, email: STAFF.officer.email, phoneNumber: STAFF.officer.phone,
      firstName: 'Abena', otherNames: null, lastName: 'Osei', fullName: 'Abena Osei', isActive: true,
      type: 'NORMAL_STAFF', position: 'LEVEL_OFFICER', jobTitle: 'Sales Officer', staffNo: 'SBX-005',
      department: {
        id: RETAIL_SALES, name: 'Retail Sales', branchId: HEAD_OFFICE,
        branch: { id: HEAD_OFFICE, name: 'Accra Head Office', address: '12 Independence Avenue, Accra' },
      },
      unreadNotifications: 9,
    });
    expect(data.notifications.map((n: { title: string }) => n.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Notice ${11 - i}`));
    expect(data).not.toHaveProperty('accessToken');
  });

  it('shows an executive manager with no department', async () => {
    const res = await me(await tokenOf(STAFF.exec.email));
    expect(res.json().data).toMatchObject({ id: STAFF.exec.id, position: 'EXECUTIVE_MANAGER', fullName: 'Efua Asante', department: null });
  });

  it('answers 401 without a token, with another tenant\'s key, and once the session version moved on', async () => {
    expect((await me('')).json().code).toBe('MISSING_TOKEN');
    const token = await tokenOf(STAFF.exec.email);
    expect((await me(token, h.otherApiKey)).json()).toEqual(INVALID_TOKEN);
    // A token signed for the other tenant names a staff member it does not have.
    const foreign = await h.app.services.signStaffAccessToken({ tenantId: h.otherTenantId, staffId: STAFF.exec.id, sessionVersion: 1 });
    expect((await me(foreign.token, h.otherApiKey)).json()).toEqual(INVALID_TOKEN);
    expect((await me(foreign.token)).json()).toEqual(INVALID_TOKEN);
    await h.db.updateTable('staff').set((eb) => ({ session_version: eb('session_version', '+', 1) })).where('id', '=', STAFF.exec.id).execute();
    expect((await me(token)).json()).toEqual(INVALID_TOKEN);
    expect((await me(await tokenOf(STAFF.exec.email))).statusCode).toBe(200);
  });
});

describe('token kinds', () => {
  it('refuses a staff token on a client call and a client token on a staff call with 403 WRONG_TOKEN_KIND', async () => {
    const staffToken = await tokenOf(STAFF.exec.email);
    const { token: clientToken } = await signUp(h);
    const onClientCall = await h.call({ method: 'GET', url: '/api/v1/client/account', token: staffToken });
    expect(onClientCall.statusCode).toBe(403);
    expect(onClientCall.json()).toEqual({
      statusCode: 403, requestId: expect.any(String), message: 'This call is for signed-in clients; a staff token cannot make it', error: 'Forbidden', code: 'WRONG_TOKEN_KIND',
    });
    const onStaffCall = await me(clientToken);
    expect(onStaffCall.statusCode).toBe(403);
    expect(onStaffCall.json()).toEqual({
      statusCode: 403, requestId: expect.any(String), message: 'This call is for staff; a client token cannot make it', error: 'Forbidden', code: 'WRONG_TOKEN_KIND',
    });
    // Logging out is each kind's own call too.
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', token: staffToken })).json().code).toBe('WRONG_TOKEN_KIND');
    expect((await h.call({ method: 'POST', url: '/api/v1/staff/auth/logout', token: clientToken })).json().code).toBe('WRONG_TOKEN_KIND');
  });
});

describe('staffLogout: POST /staff/auth/logout', () => {
  it('revokes the token: the next call with it is 401, other sessions go on', async () => {
    const token = await tokenOf(STAFF.exec.email);
    const other = await tokenOf(STAFF.exec.email);
    const res = await h.call({ method: 'POST', url: '/api/v1/staff/auth/logout', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Logged out' });
    expect((await me(token)).json()).toEqual(INVALID_TOKEN);
    expect((await h.call({ method: 'POST', url: '/api/v1/staff/auth/logout', token })).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
  });
});

describe('changeStaffPassword: PATCH /staff/auth/password', () => {
  it('refuses a wrong old password, an unchanged one and one shorter than 8 characters', async () => {
    const token = await tokenOf(STAFF.headSales.email);
    const wrong = await change(token, { oldPassword: 'wrong-pass', newPassword: 'Und3rwrite-2027' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'body.oldPassword is not the current password', error: 'Bad Request', code: 'INVALID_OLD_PASSWORD' });
    const same = await change(token, { oldPassword: PASSWORD, newPassword: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('body.newPassword must differ from body.oldPassword');
    const short = await change(token, { oldPassword: PASSWORD, newPassword: 'Abc-123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('body.newPassword must NOT have fewer than 8 characters');
    expect((await change(token, { oldPassword: PASSWORD, newPassword: 'x'.repeat(129) })).json().message)
      .toBe('body.newPassword must NOT have more than 128 characters');
    expect((await me(token)).statusCode).toBe(200);
  });

  it('changes it: the answer\'s token works, older ones are 401, and the staff member is told in the app and by email', async () => {
    const token = await tokenOf(STAFF.headSales.email);
    const res = await change(token, { oldPassword: PASSWORD, newPassword: 'Und3rwrite-2027' });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ statusCode: 200, success: true, message: 'Password changed', data: { tokenType: 'Bearer' } });
    expect((await me(token)).json()).toEqual(INVALID_TOKEN);
    const profile = await me(answer.data.accessToken);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data).toMatchObject({ unreadNotifications: 1, notifications: [{ title: 'Your password was changed', status: 'unread' }] });
    expect((await login(STAFF.headSales.email)).json()).toEqual(INVALID_CREDENTIALS);
    expect((await login(STAFF.headSales.email, 'Und3rwrite-2027')).statusCode).toBe(200);

    const notices = await h.db.selectFrom('notifications').select(['client_id', 'staff_id', 'title']).where('staff_id', '=', STAFF.headSales.id).execute();
    expect(notices).toEqual([{ client_id: null, staff_id: STAFF.headSales.id, title: 'Your password was changed' }]);
    const message = await lastMessageTo(h, STAFF.headSales.email);
    expect(message).toMatchObject({ channel: 'email', template: 'password-changed', subject: 'Your password was changed' });
    expect(message!.body).toContain('staff account');
  });
});

describe('staff password reset', () => {
  it('answers the same whether or not the staff member exists, and sends a code only to a real one', async () => {
    const known = await requestReset(STAFF.headClaims.email);
    const unknown = await requestReset('no-such-staff@sandbox.coverline.example');
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ statusCode: 200, success: true, message: 'If an account matches, a reset code has been sent to it' });
    expect(unknown.json()).toEqual(known.json());
    expect(await codeSentTo(h, STAFF.headClaims.email)).toMatch(/^\d{6}$/);
    expect(await lastMessageTo(h, 'no-such-staff@sandbox.coverline.example')).toBeUndefined();
    const stored = await h.db.selectFrom('password_reset_codes').select(['client_id', 'staff_id', 'code_hash'])
      .where('staff_id', '=', STAFF.headClaims.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ client_id: null, staff_id: STAFF.headClaims.id, code_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('sends the code by SMS when the username is a phone number', async () => {
    await requestReset(STAFF.headClaims.phone);
    expect((await lastMessageTo(h, STAFF.headClaims.phone))?.channel).toBe('sms');
  });

  it('resets with the code: wrong codes and differing passwords are 400, then the new password works and older tokens are 401', async () => {
    const token = await tokenOf(STAFF.headClaims.email);
    await requestReset(STAFF.headClaims.email);
    const code = await codeSentTo(h, STAFF.headClaims.email);
    const fresh = { username: STAFF.headClaims.email, password: 'Cl41ms-Fresh', passwordConfirm: 'Cl41ms-Fresh' };

    const wrong = await reset({ ...fresh, resetCode: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'The reset code is invalid or has expired', error: 'Bad Request', code: 'INVALID_RESET_CODE' });
    const mismatch = await reset({ ...fresh, resetCode: code, passwordConfirm: 'Cl41ms-Other' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'body.passwordConfirm must equal body.password', error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) });
    expect((await reset({ ...fresh, resetCode: code, password: 'short-1', passwordConfirm: 'short-1' })).json().message)
      .toBe('body.password must NOT have fewer than 8 characters');
    // A staff member's code is no use on the clients' reset.
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/password/reset', payload: { ...fresh, resetCode: code } })).json().code)
      .toBe('INVALID_RESET_CODE');

    const res = await reset({ ...fresh, resetCode: code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Password reset; log in with the new password' });
    expect((await me(token)).json()).toEqual(INVALID_TOKEN);
    expect((await login(STAFF.headClaims.email)).json()).toEqual(INVALID_CREDENTIALS);
    expect((await login(STAFF.headClaims.email, 'Cl41ms-Fresh')).statusCode).toBe(200);
    expect((await lastMessageTo(h, STAFF.headClaims.email))?.template).toBe('password-reset');
    // The code is spent.
    expect((await reset({ ...fresh, resetCode: code, password: 'Cl41ms-Again', passwordConfirm: 'Cl41ms-Again' })).json().code)
      .toBe('INVALID_RESET_CODE');
  });

  it('gives an unknown username the same answer as a wrong code', async () => {
    const res = await reset({ username: 'ghost@sandbox.coverline.example', resetCode: '123456', password: 'Cl41ms-Fresh', passwordConfirm: 'Cl41ms-Fresh' });
    expect(res.json().code).toBe('INVALID_RESET_CODE');
  });
});

describe('listStaffPermissions: GET /staff/permissions', () => {
  it('answers the table the server enforces, with each operation\'s method and path', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/staff/permissions', token: await tokenOf(STAFF.exec.email) });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.map((row: { operationId: string; grants: unknown; reason: string }) => [row.operationId, { grants: row.grants, reason: row.reason }]))
      .toEqual(Object.entries(PERMISSIONS));
    expect(data.find((row: { operationId: string }) => row.operationId === 'staffLogout')).toMatchObject({ method: 'POST', path: '/staff/auth/logout' });
    expect(data.find((row: { operationId: string }) => row.operationId === 'changeStaffPassword')).toMatchObject({ method: 'PATCH', path: '/staff/auth/password' });
  });
});
