import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { REQUEST_COMPLETED, REQUEST_RECEIVED } from '../../server/app/request-log.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo, individualBody } from '../helpers/clients.js';

/**
 * The request log (server/app/request-log.ts): one `request completed` line per request with who
 * called what and how it went, a debug `request received` line as it arrives, and never a
 * credential, a code, a body or a query string; request ids taken from a well-formed
 * `X-Request-Id`, answered in the header and in every error body.
 */

type Line = Record<string, unknown> & { msg: string; level: number };
const lines: Line[] = [];
const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });

let h: Harness;
beforeAll(async () => { h = await createHarness({}, { logger: { level: 'debug', stream } }); });
afterAll(async () => { await h.close(); });

const completed = () => lines.filter((line) => line.msg === REQUEST_COMPLETED);
const linesOf = (res: LightMyRequestResponse) => lines.filter((line) => line.requestId === res.headers['x-request-id']);

describe('a journey, logged', () => {
  it('logs one line per request with its fields, and no password, token, key or code', async () => {
    const body = individualBody({ password: 'Journey-Secret-Pass1' });
    const answers: LightMyRequestResponse[] = [];
    const call = async (options: Parameters<Harness['call']>[0]) => { const res = await h.call(options); answers.push(res); return res; };

    const signup = await call({ method: 'POST', url: '/api/v1/auth/signup', payload: body });
    expect(signup.statusCode).toBe(201);
    const { id: clientId } = signup.json().data;
    const login = await call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password: body.password } });
    expect(login.statusCode).toBe(200);
    const { accessToken, refreshToken } = login.json().data;
    expect(typeof accessToken).toBe('string');
    // A query string (whatever the call makes of it) is never logged.
    const queried = await h.app.inject({ method: 'GET', url: '/api/v1/client/account?include=secret-query-value',
      headers: { 'api-key': h.apiKey, authorization: `Bearer ${accessToken}` } });
    answers.push(queried);
    const own = await call({ method: 'GET', url: '/api/v1/client/account', token: accessToken });
    expect(own.statusCode).toBe(200);
    const wrongToken = await call({ method: 'GET', url: '/api/v1/client/account', token: `${accessToken}x` });
    expect(wrongToken.statusCode).toBe(401);
    const refreshed = await call({ method: 'POST', url: '/api/v1/auth/token/refresh', payload: { refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json().data as { accessToken: string; refreshToken: string };
    await call({ method: 'POST', url: '/api/v1/auth/password/request-reset', payload: { username: body.email } });
    const code = await codeSentTo(h, body.email);
    const reset = await call({ method: 'POST', url: '/api/v1/auth/password/reset',
      payload: { username: body.email, resetCode: code, password: 'Fresh-Secret-Pass2', passwordConfirm: 'Fresh-Secret-Pass2' } });
    expect(reset.statusCode).toBe(200);
    const wrongKey = await call({ method: 'GET', url: '/api/v1/currencies', apiKey: 'sk_test_not-a-real-key-0000' });
    expect(wrongKey.statusCode).toBe(401);

    for (const res of answers) {
      const mine = linesOf(res).filter((line) => line.msg === REQUEST_COMPLETED);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ requestId: res.headers['x-request-id'], statusCode: res.statusCode, method: expect.any(String),
        operationId: expect.any(String), route: expect.stringMatching(/^\/api\/v1\//), durationMs: expect.any(Number), actorKind: expect.any(String) });
      expect(linesOf(res).filter((line) => line.msg === REQUEST_RECEIVED)).toEqual([
        expect.objectContaining({ level: 20, requestId: res.headers['x-request-id'], operationId: mine[0].operationId }),
      ]);
    }
    expect(linesOf(signup).find((line) => line.msg === REQUEST_COMPLETED)).toMatchObject({ operationId: 'signUp', tenantId: h.tenantId, actorKind: 'anonymous' });
    expect(linesOf(own).find((line) => line.msg === REQUEST_COMPLETED)).toMatchObject({
      operationId: 'getAccount', method: 'GET', route: '/api/v1/client/account', statusCode: 200, tenantId: h.tenantId, actorKind: 'client', actorId: clientId,
    });
    expect(linesOf(wrongToken).find((line) => line.msg === REQUEST_COMPLETED)).toMatchObject({ statusCode: 401, errorCode: 'INVALID_TOKEN', actorKind: 'none' });
    expect(completed()).toHaveLength(answers.length);

    const everything = JSON.stringify(lines);
    for (const secret of [body.password, 'Fresh-Secret-Pass2', accessToken, refreshToken, renewed.accessToken, renewed.refreshToken, h.apiKey, 'sk_test_not-a-real-key-0000', code,
      body.email, body.phoneNumber, 'secret-query-value']) {
      expect({ secret, logged: everything.includes(secret) }).toEqual({ secret, logged: false });
    }
  });
});

describe('request ids', () => {
  it('keeps a well-formed X-Request-Id: answered in the header, the log line and the error body', async () => {
    const id = 'req_client-2026.11:0001';
    const res = await h.call({ method: 'GET', url: '/api/v1/client/account', headers: { 'x-request-id': id } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe(id);
    expect(res.json()).toMatchObject({ code: 'MISSING_TOKEN', requestId: id });
    expect(linesOf(res).filter((line) => line.msg === REQUEST_COMPLETED)).toHaveLength(1);
  });

  it.each([
    ['too short', 'abc'],
    ['a space and a quote', 'abc def"ghi'],
    ['too long', 'a'.repeat(129)],
    ['a newline', 'abcdefgh\nforged-line'],
  ])('replaces one that is %s with a UUID', async (_what, sent) => {
    const res = await h.call({ method: 'GET', url: '/api/v1/currencies', headers: { 'x-request-id': sent } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(linesOf(res).filter((line) => line.msg === REQUEST_COMPLETED)).toHaveLength(1);
  });

  it('is in every error body, equal to the header: validation, unknown route, wrong key, bad URL', async () => {
    const answers = [
      await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: { type: 'INDIVIDUAL' } }),
      await h.call({ method: 'GET', url: '/api/v1/no-such-thing' }),
      await h.call({ method: 'GET', url: '/api/v1/currencies', apiKey: 'wrong' }),
      await h.call({ method: 'GET', url: '/api/v1/currencies', apiKey: null }),
      await h.app.inject({ method: 'GET', url: '/api/v1/client/policies/%E0%A4%A' }),
    ];
    for (const res of answers) {
      expect({ body: res.body, header: res.headers['x-request-id'] }).toEqual({ body: res.body, header: expect.any(String) });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    }
  });

  it('is exposed to browser pages (CORS)', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/currencies', headers: { origin: 'http://localhost:3001' } });
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/X-Request-Id/);
  });
});
