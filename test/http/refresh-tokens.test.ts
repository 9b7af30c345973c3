import { createHash } from 'node:crypto';
import { jobHandlers, PURGE_ENDED_SESSIONS_QUEUE, RECURRING } from '../../server/app/jobs.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { signUp } from '../helpers/clients.js';
import { SANDBOX_STAFF_PASSWORD, sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * Refresh tokens (OAuth 2.0 Security BCP rotation) for client and staff sessions: what logins
 * answer, rotation, reuse of a spent token, the family's bounded lifetime, and what ends a
 * session (logout, password change, deactivation). Client sessions come from sign-ups (a bucket of
 * their own), so the per-address login limit the refreshes share is not used up by the suite.
 */

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const REFRESH_TOKEN = /^rt_[A-Za-z0-9_-]{43}$/;
const INVALID_REFRESH_TOKEN = { statusCode: 401, requestId: expect.any(String), message: 'The refresh token is invalid, expired or revoked: sign in again', error: 'Unauthorized', code: 'INVALID_REFRESH_TOKEN' };
const REFRESH_TOKEN_REUSED = {
  statusCode: 401, requestId: expect.any(String), message: 'The refresh token was already used: its session is revoked, every token of it included; sign in again',
  error: 'Unauthorized', code: 'REFRESH_TOKEN_REUSED',
};

const refresh = (refreshToken: string, apiKey?: string | null) =>
  h.call({ method: 'POST', url: '/api/v1/auth/token/refresh', payload: { refreshToken }, apiKey });
const refreshStaff = (refreshToken: string, apiKey?: string) =>
  h.call({ method: 'POST', url: '/api/v1/staff/auth/token/refresh', payload: { refreshToken }, apiKey });
const account = (token: string) => h.call({ method: 'GET', url: '/api/v1/client/account', token });
const staffMe = (token: string) => h.call({ method: 'GET', url: '/api/v1/staff/me', token });
const staffLogin = (handle: string) =>
  h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username: sandboxStaff(handle).email, password: SANDBOX_STAFF_PASSWORD } });
const rowsOf = (subjectId: string) =>
  h.db.selectFrom('refresh_tokens').selectAll().where('subject_id', '=', subjectId).orderBy('created_at').orderBy('id').execute();

/** A new session of a client by a password login (another device, say). */
async function loginAgain(clientId: string, password: string) {
  const { email } = await h.db.selectFrom('clients').select('email').where('id', '=', clientId).executeTakeFirstOrThrow();
  const res = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { accessToken: string; refreshToken: string };
}

/** A signed-up client's session: its id and the tokens the sign-up answered. */
async function clientSession() {
  const { account: data } = await signUp(h);
  return { id: data.id as string, accessToken: data.accessToken as string, refreshToken: data.refreshToken as string, password: 's3cure-Pass' };
}

describe('login, signUp: POST /auth/login, POST /auth/signup answer a refresh token', () => {
  it('answers a refresh token and when its session ends, beside a 15-minute access token', async () => {
    const { body, account: signedUp } = await signUp(h);
    expect(signedUp.refreshToken).toMatch(REFRESH_TOKEN);
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password: body.password } });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.refreshToken).toMatch(REFRESH_TOKEN);
    expect(data.refreshToken).not.toBe(signedUp.refreshToken);
    const now = h.clock.now().getTime();
    // 30 days from the login (the clock's), whatever the rotations.
    expect(Math.abs(Date.parse(data.refreshTokenExpiresAt) - (now + 30 * 86_400_000))).toBeLessThan(60_000);
    // Access tokens last 15 minutes by default (signed on the wall clock).
    expect(Math.abs(Date.parse(data.expiresAt) - (Date.now() + 15 * 60_000))).toBeLessThan(60_000);
    expect(h.config.jwtTtlSeconds).toBe(900);
  });

  it('keeps only a SHA-256 of each refresh token in the database', async () => {
    const session = await clientSession();
    const rotated = (await refresh(session.refreshToken)).json().data;
    const rows = await rowsOf(session.id);
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const raw of [session.refreshToken, rotated.refreshToken]) {
      expect(stored).not.toContain(raw);
      expect(stored).not.toContain(raw.slice(3));
    }
    const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
    expect(rows.map((row) => row.token_hash)).toEqual([sha256(session.refreshToken), sha256(rotated.refreshToken)]);
    expect(rows[0]).toMatchObject({ subject_kind: 'client', tenant_id: h.tenantId, family_id: rows[1].family_id });
    expect(rows[0].used_at).not.toBeNull();
    expect(rows[1].used_at).toBeNull();
  });
});

describe('refreshToken: POST /auth/token/refresh', () => {
  it('renews a session once: a new pair of the same family whose access token works', async () => {
    const session = await clientSession();
    const res = await refresh(session.refreshToken);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: session.id, tokenType: 'Bearer' });
    expect(data.refreshToken).toMatch(REFRESH_TOKEN);
    expect(data.refreshToken).not.toBe(session.refreshToken);
    expect(data.accessToken).not.toBe(session.accessToken);
    expect((await account(data.accessToken)).statusCode).toBe(200);
    // The family's end does not move with a rotation.
    const [first] = await rowsOf(session.id);
    expect(data.refreshTokenExpiresAt).toBe(first.expires_at.toISOString());
    // The next one renews it again.
    const again = await refresh(data.refreshToken);
    expect(again.statusCode).toBe(200);
    expect((await account(again.json().data.accessToken)).statusCode).toBe(200);
  });

  it('revokes the whole family when a spent token comes back: the newer token and its access tokens stop too', async () => {
    const session = await clientSession();
    const rotated = (await refresh(session.refreshToken)).json().data;
    const reused = await refresh(session.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual(REFRESH_TOKEN_REUSED);
    // The legitimate holder's newest refresh token is revoked, and the session's access tokens with it.
    expect((await refresh(rotated.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await account(rotated.accessToken)).json().code).toBe('INVALID_TOKEN');
    expect((await account(session.accessToken)).json().code).toBe('INVALID_TOKEN');
    // Recorded on the family's rows.
    const rows = await rowsOf(session.id);
    expect(rows.map((row) => row.revoked_reason)).toEqual(['REUSED', 'REUSED']);
    // The spent token, sent once more, finds its family ended.
    expect((await refresh(session.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    // Another session of the same client is not touched.
    const other = await loginAgain(session.id, session.password);
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
  });

  it('answers 401 INVALID_REFRESH_TOKEN to an unknown token, and to a token sent with another company\'s Api-Key', async () => {
    expect((await refresh('rt_not-a-token-we-made')).json()).toEqual(INVALID_REFRESH_TOKEN);
    const session = await clientSession();
    const foreign = await refresh(session.refreshToken, h.otherApiKey);
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual(INVALID_REFRESH_TOKEN);
    // Not spent by the refusal: its own company's key renews it.
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
  });

  it('takes the Api-Key: none is 401 MISSING_API_KEY', async () => {
    const res = await refresh('rt_whatever', null);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('MISSING_API_KEY');
  });

  it('ends a family 30 days after its login, whatever its rotations', async () => {
    const session = await clientSession();
    h.clock.advance(20 * 86_400_000);
    try {
      const rotated = (await refresh(session.refreshToken)).json().data;
      h.clock.advance(10 * 86_400_000 + 60_000);
      expect((await refresh(rotated.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    } finally {
      h.clock.advance(-(30 * 86_400_000 + 60_000));
    }
  });

  it('the hourly sweep deletes the rows of ended sessions and keeps those of live ones', async () => {
    const ended = await clientSession();
    h.clock.advance(29 * 86_400_000);
    const live = await clientSession();
    try {
      h.clock.advance(86_400_000 + 60_000); // the first session is 30 days and a minute old, the second a day
      // The job as the worker runs it.
      await jobHandlers(h.app.services)[PURGE_ENDED_SESSIONS_QUEUE]({} as never, h.clock.now());
      expect((await rowsOf(ended.id)).length).toBe(0);
      expect((await rowsOf(live.id)).length).toBe(1);
      expect((await refresh(ended.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
      expect((await refresh(live.refreshToken)).statusCode).toBe(200);
    } finally {
      h.clock.advance(-(30 * 86_400_000 + 60_000));
    }
    expect(RECURRING.map((r) => r.queue)).toContain(PURGE_ENDED_SESSIONS_QUEUE);
  });

  it('refuses a client refresh token on the staff route (401), and leaves it unspent', async () => {
    const session = await clientSession();
    const res = await refreshStaff(session.refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
  });

  it('shares the per-address limit of logins: past it, 429 with Retry-After', async () => {
    const session = await clientSession();
    const address = '198.51.100.23';
    await h.db.insertInto('rate_limit_buckets')
      .values({ bucket: `login:address:${h.tenantId}:${address}`, window_started_at: h.clock.now(), hits: 50 }).execute();
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/token/refresh', payload: { refreshToken: session.refreshToken }, remoteAddress: address });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('logout, changePassword, deactivateClient: what ends a client session', () => {
  it('logout revokes the session: its refresh token answers 401, other sessions keep working', async () => {
    const session = await clientSession();
    const other = await loginAgain(session.id, session.password);
    const rotated = (await refresh(session.refreshToken)).json().data;
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', token: rotated.accessToken })).statusCode).toBe(200);
    expect((await refresh(rotated.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    // Every access token of the session stops, not only the one that logged out.
    expect((await account(session.accessToken)).json().code).toBe('INVALID_TOKEN');
    // The other session (its first token unspent) goes on.
    expect((await account(other.accessToken)).statusCode).toBe(200);
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    const rows = await rowsOf(session.id);
    const ended = rows.find((row) => row.token_hash === createHash('sha256').update(session.refreshToken).digest('hex'))!.family_id;
    expect(rows.map((row) => [row.family_id === ended, row.revoked_reason])).toEqual([[true, 'LOGOUT'], [false, null], [true, 'LOGOUT'], [false, null]]);
  });

  it('a password change revokes every session and answers a new one', async () => {
    const session = await clientSession();
    const res = await h.call({ method: 'PATCH', url: '/api/v1/auth/password', token: session.accessToken, payload: { oldPassword: session.password, newPassword: 'n3w-Secret' } });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.refreshToken).toMatch(REFRESH_TOKEN);
    expect((await refresh(session.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    const renewed = await refresh(data.refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect((await account(renewed.json().data.accessToken)).statusCode).toBe(200);
    expect((await rowsOf(session.id))[0].revoked_reason).toBe('PASSWORD_CHANGED');
  });

  it('a client deactivated by staff cannot refresh (401), nor after being activated again', async () => {
    const session = await clientSession();
    const exec = await staffSession(h, 'exec');
    const deactivated = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${session.id}/deactivate`, token: exec.token, payload: { reason: 'Duplicate account of an existing client' } });
    expect(deactivated.statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await rowsOf(session.id))[0].revoked_reason).toBe('DEACTIVATED');
    expect((await h.call({ method: 'POST', url: `/api/v1/staff/clients/${session.id}/activate`, token: exec.token })).statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
  });

  it('a client that closed its own account cannot refresh (401)', async () => {
    const session = await clientSession();
    const closed = await h.call({ method: 'DELETE', url: '/api/v1/client/account', token: session.accessToken, payload: { password: session.password, passwordConfirm: session.password } });
    expect(closed.statusCode).toBeLessThan(300);
    expect((await refresh(session.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
  });
});

describe('staffLogin, refreshStaffToken: POST /staff/auth/login, POST /staff/auth/token/refresh', () => {
  it('answers a refresh token at login that renews the session once, 7 days at most', async () => {
    const login = await staffLogin('officer');
    expect(login.statusCode).toBe(200);
    const { data } = login.json();
    expect(data.refreshToken).toMatch(REFRESH_TOKEN);
    expect(Math.abs(Date.parse(data.refreshTokenExpiresAt) - (h.clock.now().getTime() + 7 * 86_400_000))).toBeLessThan(60_000);
    const res = await refreshStaff(data.refreshToken);
    expect(res.statusCode).toBe(200);
    const renewed = res.json().data;
    expect(renewed).toMatchObject({ id: sandboxStaff('officer').id, tokenType: 'Bearer', refreshTokenExpiresAt: data.refreshTokenExpiresAt });
    expect((await staffMe(renewed.accessToken)).statusCode).toBe(200);
    // A staff refresh token on the client route: 401, and still good on its own.
    expect((await refresh(renewed.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await refreshStaff(renewed.refreshToken)).statusCode).toBe(200);
  });

  it('revokes the family on reuse and records it in the company\'s audit trail', async () => {
    const officer = sandboxStaff('officer');
    const { data } = (await staffLogin('officer')).json();
    const rotated = (await refreshStaff(data.refreshToken)).json().data;
    const reused = await refreshStaff(data.refreshToken);
    expect(reused.json()).toEqual(REFRESH_TOKEN_REUSED);
    expect((await refreshStaff(rotated.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await staffMe(rotated.accessToken)).json().code).toBe('INVALID_TOKEN');
    const exec = await staffSession(h, 'exec');
    const trail = await h.call({ method: 'GET', url: `/api/v1/staff/audit-events?action=refreshStaffToken&entityId=${officer.id}`, token: exec.token });
    expect(trail.statusCode).toBe(200);
    const [event] = trail.json().data;
    expect(event).toMatchObject({ action: 'refreshStaffToken', entity: { type: 'StaffMember', id: officer.id }, actor: { kind: 'staff', id: officer.id }, change: 'updated' });
    expect(Object.keys(event.after)).toEqual(['refreshTokenReusedAt']);
  });

  it('ends a staff family 7 days after its login', async () => {
    const { data } = (await staffLogin('head.claims')).json();
    h.clock.advance(7 * 86_400_000 + 60_000);
    try {
      expect((await refreshStaff(data.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    } finally {
      h.clock.advance(-(7 * 86_400_000 + 60_000));
    }
  });

  it('staffLogout revokes the session; a deactivated staff member cannot refresh', async () => {
    const first = (await staffLogin('agent')).json().data;
    expect((await h.call({ method: 'POST', url: '/api/v1/staff/auth/logout', token: first.accessToken })).statusCode).toBe(200);
    expect((await refreshStaff(first.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);

    const second = (await staffLogin('agent')).json().data;
    const exec = await staffSession(h, 'exec');
    expect((await h.call({ method: 'POST', url: `/api/v1/staff/members/${sandboxStaff('agent').id}/deactivate`, token: exec.token })).statusCode).toBe(200);
    expect((await refreshStaff(second.refreshToken)).json()).toEqual(INVALID_REFRESH_TOKEN);
    expect((await rowsOf(sandboxStaff('agent').id)).map((row) => row.revoked_reason)).toEqual(['LOGOUT', 'DEACTIVATED']);
  });
});
