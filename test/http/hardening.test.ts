import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { configWarnings, loadConfig } from '../../server/platform/config.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { file, multipart, PDF } from '../helpers/multipart.js';

/**
 * What a browser, an attacker or a careless integrator sends that the happy paths never do:
 * origins, caching, unusual tokens, absurd bodies and addresses. None may reach a 500, and each
 * answer keeps the error shape.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ corsOrigins: ['https://app.example'], signupsPerAddressPerHour: 10, operatorKeyFailuresPerAddress: 5 }, {
    // A statement whose number overflows its column, as an amount times a rate could.
    beforeReady: (app) => app.get('/test/overflow', async () => sql`select ${'1e20'}::numeric(18,2) as n`.execute(h.db)),
  });
});
afterAll(async () => { await h.close(); });

const preflight = (origin: string, method = 'POST') => h.app.inject({ method: 'OPTIONS', url: '/api/v1/auth/login', headers: {
  origin, 'access-control-request-method': method, 'access-control-request-headers': 'api-key,authorization,content-type',
} });

const expectErrorShape = (res: { statusCode: number; json: () => any }, statusCode: number, message: RegExp) => {
  expect(res.statusCode).toBe(statusCode);
  expect(res.json()).toMatchObject({ statusCode, error: expect.any(String), message: expect.stringMatching(message) });
};

describe('CORS', () => {
  it('answers preflight for an allowed origin with the headers client apps send and every method the API uses', async () => {
    const res = await preflight('https://app.example', 'DELETE');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('api-key');
    const methods = String(res.headers['access-control-allow-methods']).split(',').map((m) => m.trim());
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
  });

  it('does not let any other origin, nor the opaque null origin, read answers', async () => {
    for (const origin of ['https://evil.example', 'null', 'https://app.example.evil.example']) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const get = await h.call({ method: 'GET', url: '/api/v1/countries', headers: { origin } });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('reads CORS_ORIGINS as a list of origins, * for any, and a sandbox list when unset', () => {
    const base = { JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: '/tmp/coverline-test' };
    expect(loadConfig({ ...base, CORS_ORIGINS: 'https://a.example, https://b.example:8443' }).corsOrigins).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(loadConfig({ ...base, CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig(base).corsOrigins).toContain('http://localhost:3001');
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'https://a.example/app' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'null' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('start-up warnings', () => {
  it('warns when links would point at localhost on a server others reach, and not in the local sandbox', () => {
    const base = { JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: '/tmp/coverline-test' };
    expect(configWarnings(loadConfig(base), base)).toEqual([]);
    const exposed = { ...base, HOST: '0.0.0.0' };
    expect(configWarnings(loadConfig(exposed), exposed)).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL is not set: .*http:\/\/localhost:3000/)]);
    const told = { ...exposed, PUBLIC_BASE_URL: 'https://api.example' };
    expect(configWarnings(loadConfig(told), told)).toEqual([]);
  });
});

describe('Cache-Control', () => {
  it('is no-store on answers carrying tokens and on authenticated answers', async () => {
    const { token, body } = await signUp(h);
    const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password: body.password } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const account = await h.call({ method: 'GET', url: '/api/v1/client/account', token });
    expect(account.statusCode).toBe(200);
    expect(account.headers['cache-control']).toBe('no-store');
    const refused = await h.call({ method: 'GET', url: '/api/v1/client/account' });
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});

describe('sign-in and sign-up abuse', () => {
  const address = (ip: string) => ({ remoteAddress: ip });
  it('limits sign-ups per address (429 with Retry-After), so emails cannot be probed at speed', async () => {
    const signUpFrom = (ip: string) => h.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers: { 'api-key': h.apiKey }, payload: individualBody(), ...address(ip) });
    for (let i = 0; i < 10; i += 1) expect((await signUpFrom('203.0.113.7')).statusCode).toBe(201);
    const refused = await signUpFrom('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signUpFrom('203.0.113.8')).statusCode).toBe(201);
  });

  it('answers 429 instead of 401 once an address has sent too many wrong Operator-Keys', async () => {
    const operatorCall = (key: string | undefined, ip: string) => h.app.inject({
      method: 'GET', url: '/api/v1/operator/companies', headers: key ? { 'operator-key': key } : {}, remoteAddress: ip,
    });
    for (let i = 0; i < 5; i += 1) expect((await operatorCall(i % 2 ? 'op_guess_0000000000000000000000000000' : undefined, '203.0.113.50')).statusCode).toBe(401);
    const refused = await operatorCall('op_guess_1111111111111111111111111111', '203.0.113.50');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The right key still works, and other addresses are not held back.
    expect((await operatorCall(h.config.operatorKey, '203.0.113.50')).statusCode).toBe(200);
    expect((await operatorCall('op_guess_0000000000000000000000000000', '203.0.113.51')).statusCode).toBe(401);
  });

  it('locks an account out whichever of its usernames (email or phone) the wrong passwords came under', async () => {
    const { body } = await signUp(h);
    const login = (username: string, password: string) => h.app.inject({
      method: 'POST', url: '/api/v1/auth/login', headers: { 'api-key': h.apiKey }, payload: { username, password }, remoteAddress: '198.51.100.21',
    });
    for (let i = 0; i < 5; i += 1) expect((await login(body.email as string, 'wrong-Pass1')).statusCode).toBe(401);
    for (let i = 0; i < 5; i += 1) expect((await login(body.phoneNumber as string, 'wrong-Pass1')).statusCode).toBe(401);
    // Ten failures on one account, split across its two usernames: the right password waits too.
    expect((await login(body.email as string, body.password as string)).statusCode).toBe(429);
  });
});

describe('access tokens', () => {
  /** An HS256 token signed with the server's own secret: what only a leaked secret could forge. */
  function forge(claims: Record<string, unknown>) {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
    return `${unsigned}.${createHmac('sha256', h.config.jwtSecret).update(unsigned).digest('base64url')}`;
  }

  it('refuses a token without exp, and one older than the token lifetime whatever its exp says', async () => {
    const { token } = await signUp(h);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token: forge(claims) })).statusCode).toBe(200);
    const { exp: _exp, ...noExp } = claims;
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token: forge(noExp) })).statusCode).toBe(401);
    const old = { ...claims, iat: now - h.config.jwtTtlSeconds - 60, exp: now + 10 * 365 * 86_400 };
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token: forge(old) })).statusCode).toBe(401);
  });
});

describe('bodies and addresses no handler expects', () => {
  it('answers 400, not 500, to JSON nested thousands of levels deep', async () => {
    const { token } = await signUp(h);
    for (const depth of [40, 20_000]) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const res = await h.call({ method: 'PATCH', url: '/api/v1/client/account', token, headers: { 'content-type': 'application/json' }, payload: `{"firstName":"Ama","groups":${deep}}` });
      expectErrorShape(res, 400, /deeper than 32 levels/);
    }
  });

  it('answers 400 to a NUL byte in a multipart field or file name', async () => {
    const { token } = await signUp(h);
    for (const parts of [[file('scan\u0000.pdf', PDF, 'application/pdf')], [file('scan.pdf', PDF, 'application/pdf'), { field: 'note\u0000', data: 'x' }]]) {
      const { payload, headers } = multipart(parts as never);
      const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token });
      expectErrorShape(res, 400, /NUL/);
    }
  });

  it('answers 400, not 500, when a number overflows its column', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/test/overflow' });
    expectErrorShape(res, 400, /too large to be stored/);
    expect(res.json().code).toBe('NUMBER_OUT_OF_RANGE');
  });

  it('keeps the error shape on an address too long to route (414)', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/client/policies/${'a'.repeat(5000)}`, headers: { 'api-key': h.apiKey } });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ statusCode: 414, requestId: expect.any(String), error: 'URI Too Long', code: 'URI_TOO_LONG', message: expect.stringMatching(/longer than 100 characters$/) });
    expect(res.body.length).toBeLessThan(400);
    const unknown = await h.app.inject({ method: 'GET', url: `/api/v1/${'a'.repeat(100_000)}`, headers: { 'api-key': h.apiKey } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.length).toBeLessThan(400);
  });
});
