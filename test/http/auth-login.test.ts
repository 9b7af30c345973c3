import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const login = (payload: unknown, apiKey?: string) =>
  h.call({ method: 'POST', url: '/api/v1/auth/login', payload: payload as object, apiKey });
const logout = (token: string, apiKey?: string) => h.call({ method: 'POST', url: '/api/v1/auth/logout', token, apiKey });

describe('login: POST /auth/login', () => {
  it('signs in by email in any case and by phone number', async () => {
    const { body, account } = await signUp(h);
    for (const username of [body.email as string, (body.email as string).toUpperCase(), body.phoneNumber as string]) {
      const res = await login({ username, password: body.password });
      expect(res.statusCode).toBe(200);
      const { statusCode, success, data } = res.json();
      expect({ statusCode, success }).toEqual({ statusCode: 200, success: true });
      expect(data).toMatchObject({ id: account.id, email: body.email, tokenType: 'Bearer' });
      expect(typeof data.accessToken).toBe('string');
      expect(new Date(data.expiresAt).getTime()).toBeGreaterThan(Date.now());
      expect((await logout(data.accessToken)).statusCode).toBe(200);
    }
  });

  it('gives the same 401 for a wrong password and an unknown username', async () => {
    const { body } = await signUp(h);
    const wrong = await login({ username: body.email, password: 'not-the-password' });
    const unknown = await login({ username: 'nobody@example.com', password: 'whatever' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, requestId: expect.any(String), message: 'Invalid email or password', error: 'Unauthorized', code: 'INVALID_CREDENTIALS' });
    }
  });

  it('does not sign a client of one tenant in through another tenant\'s key', async () => {
    const { body } = await signUp(h);
    const res = await login({ username: body.email, password: body.password }, h.otherApiKey);
    expect(res.statusCode).toBe(401);
  });

  it.each([
    [{ username: 'kofi@example.com' }, /body: send username and password, or a firebaseToken/],
    [{ password: 'x' }, /body: send username and password, or a firebaseToken/],
    [{}, /body: send username and password, or a firebaseToken/],
    [{ username: 'a', password: 'b', extra: 1 }, /body: send username and password, or a firebaseToken/],
  ])('needs username with password, or a firebaseToken: %j', async (payload, message) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it('locks an account after 10 failures for 15 minutes, then lets it in again', async () => {
    const { body } = await signUp(h);
    for (let i = 0; i < 10; i += 1) expect((await login({ username: body.email, password: 'wrong-pass' })).statusCode).toBe(401);
    const locked = await login({ username: body.email, password: body.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
    // The limit that was hit, in the RateLimit fields: 10 tries a window, none left, the same wait.
    expect(locked.headers).toMatchObject({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': locked.headers['retry-after'] });
    h.clock.advance(15 * 60 * 1000 + 1000);
    expect((await login({ username: body.email, password: body.password })).statusCode).toBe(200);
  });

  it('clears failures after a successful login', async () => {
    const { body } = await signUp(h);
    for (let i = 0; i < 9; i += 1) await login({ username: body.email, password: 'wrong-pass' });
    expect((await login({ username: body.email, password: body.password })).statusCode).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await login({ username: body.email, password: 'wrong-pass' })).statusCode).toBe(401);
  });
});

describe('access tokens', () => {
  it('stop working after logout, and logout leaves other tokens alone', async () => {
    const { body, token } = await signUp(h);
    const second = (await login({ username: body.email, password: body.password })).json().data.accessToken;
    expect((await logout(token)).json()).toEqual({ statusCode: 200, success: true, message: 'Logged out' });
    const again = await logout(token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ statusCode: 401, requestId: expect.any(String), message: 'The access token is invalid, expired or revoked', error: 'Unauthorized', code: 'INVALID_TOKEN' });
    expect((await logout(second)).statusCode).toBe(200);
  });

  it('keeps revocations in the database, where every instance and restart sees them', async () => {
    const { token } = await signUp(h);
    await logout(token);
    const rows = await h.db.selectFrom('revoked_tokens').selectAll().where('tenant_id', '=', h.tenantId).execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('are refused without the Api-Key, with another tenant\'s Api-Key, or missing', async () => {
    const { token } = await signUp(h);
    expect((await logout(token, 'sk_sandbox_unknown')).json().code).toBe('INVALID_API_KEY');
    expect((await logout(token, h.otherApiKey)).json().code).toBe('INVALID_TOKEN');
    const none = await h.call({ method: 'POST', url: '/api/v1/auth/logout' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('MISSING_TOKEN');
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: 'Basic abc' } })).json().code).toBe('MISSING_TOKEN');
  });

  it('refuse expired, tampered, unsigned and foreign-secret tokens', async () => {
    const { account, token } = await signUp(h);
    const claims = { sub: account.id, tid: h.tenantId, kind: 'client', sv: 1, jti: '5b0c7c1e-1111-4222-8333-444455556666' };
    const expired = h.app.jwt.sign({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 } as any);
    const [header, payload] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url')}.${token.split('.')[2]}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const { createSigner } = await import('fast-jwt');
    const foreign = createSigner({ key: 'another-secret-of-sufficient-length-123456', algorithm: 'HS256' })(claims);
    const hs512 = createSigner({ key: h.config.jwtSecret, algorithm: 'HS512' })(claims);
    for (const bad of [expired, tampered, none, foreign, hs512, 'not.a.jwt']) {
      const res = await logout(bad);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INVALID_TOKEN');
    }
    expect((await logout(token)).statusCode).toBe(200);
  });

  it('stop working when the client is deleted or deactivated', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    await h.db.updateTable('clients').set({ deleted_at: new Date() }).where('id', '=', a.account.id).execute();
    await h.db.updateTable('clients').set({ is_active: false }).where('id', '=', b.account.id).execute();
    expect((await logout(a.token)).statusCode).toBe(401);
    expect((await logout(b.token)).statusCode).toBe(401);
  });

  it('are checked before the body: an anonymous caller gets 401, not a schema error', async () => {
    const res = await h.call({ method: 'PATCH', url: '/api/v1/auth/password', payload: { wrong: 'shape' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('MISSING_TOKEN');
    const noKey = await h.call({ method: 'PATCH', url: '/api/v1/auth/password', payload: { wrong: 'shape' }, apiKey: null });
    expect(noKey.json().code).toBe('MISSING_API_KEY');
  });
});

describe('individual signup body used by later suites stays valid', () => {
  it('signs up with the shared fixture', async () => {
    expect((await signUp(h, individualBody())).account.type).toBe('INDIVIDUAL');
  });
});
