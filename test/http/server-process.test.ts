import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { freePort } from '../helpers/harness.js';
import { killServers, startServer } from '../helpers/server-process.js';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm start` as a user runs it: a real process on the embedded database in a fresh DATA_DIR.

const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-start-'));
const KEY = 'sk_sandbox_process_test_key_000000';

/**
 * The server's log line saying it has a request of `operationId` (`url`): the DEBUG line 'request
 * received' naming the operation; or, from a server that logs each request as Fastify does by
 * default, its 'incoming request' line with the URL.
 */
const requestReceived = (operationId: string, url: string) => (line: string) =>
  (line.includes('request received') && line.includes(operationId)) || (line.includes('incoming request') && line.includes(`"url":"${url}"`));

afterAll(killServers);

// LOG_LEVEL debug: the log says when a request arrives and when SIGTERM is taken, the signals the test waits for.
const start = (port: number, env: Record<string, string> = {}) => startServer({
  DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), SANDBOX_API_KEY: KEY, LOG_LEVEL: 'debug', NODE_ENV: 'development', ...env,
});

function send(port: number, method: string, url: string, body?: object, beforeEnd?: () => Promise<void>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }>((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : '';
    const req = request({ host: '127.0.0.1', port, method, path: url, headers: {
      'api-key': KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload),
    } }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    // Half the body first: the request is in flight when `beforeEnd` runs.
    req.write(payload.slice(0, 10));
    (beforeEnd ?? (async () => {}))().then(() => req.end(payload.slice(10)), reject);
  });
}

describe('npm start', () => {
  it('prints how to call it, finishes in-flight requests on SIGTERM while refusing new ones, keeps its data across restarts, and exits 1 naming what is left when a request outlasts SHUTDOWN_TIMEOUT_MS', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toContain(`http://127.0.0.1:${port}/api/v1`);
    expect(first.output()).toContain(`Sandbox Api-Key: ${KEY}`);
    expect(first.output()).toContain('curl');

    const signup = { type: 'INDIVIDUAL', firstName: 'Esi', lastName: 'Boateng', email: 'esi@example.com', password: 's3cure-Pass', country: 'GH', groups: [] };
    const duringShutdown: { ready?: number; readyRetryAfter?: unknown; refused?: number; refusedRetryAfter?: unknown; refusedCode?: string } = {};
    const answer = await send(port, 'POST', '/api/v1/auth/signup', signup, async () => {
      // The server has the request (it logged it) before the signal; it has taken the signal before the body ends.
      await first.printed(requestReceived('signUp', '/api/v1/auth/signup'));
      first.child.kill('SIGTERM');
      await first.printed('SIGTERM: finishing in-flight requests');
      // While the signup is still in flight: readiness says no, and a new request is refused.
      const ready = await send(port, 'GET', '/api/v1/health/ready');
      const refused = await send(port, 'GET', '/api/v1/currencies');
      Object.assign(duringShutdown, { ready: ready.status, readyRetryAfter: ready.headers['retry-after'],
        refused: refused.status, refusedRetryAfter: refused.headers['retry-after'], refusedCode: refused.json?.code });
    });
    expect(duringShutdown).toEqual({ ready: 503, readyRetryAfter: expect.any(String), refused: 503, refusedRetryAfter: '1', refusedCode: 'SHUTTING_DOWN' });
    expect(answer.status).toBe(201);
    expect(await first.exited()).toBe(0);

    // The second time, a request that never ends holds the shutdown past SHUTDOWN_TIMEOUT_MS.
    const second = await start(port, { SHUTDOWN_TIMEOUT_MS: '1500' });
    const login = await send(port, 'POST', '/api/v1/auth/login', { username: 'esi@example.com', password: 's3cure-Pass' });
    expect(login.status).toBe(200);
    expect(login.json.data.email).toBe('esi@example.com');
    send(port, 'POST', '/api/v1/auth/signup', signup, () => new Promise(() => {})).catch(() => {});
    await second.printed((line) => requestReceived('signUp', '/api/v1/auth/signup')(line) && !first.output().includes(line));
    second.child.kill('SIGTERM');
    // It exits 1, and its last line, logged just before (written out at exit, not lost in the log's queue), says what was left.
    expect(await second.exited()).toBe(1);
    const last = second.output().trim().split('\n').filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; requests?: string[] }).pop();
    expect(last).toMatchObject({ level: 50, requests: ['POST /api/v1/auth/signup'] });
    expect(last!.msg).toContain('SIGTERM: not finished within SHUTDOWN_TIMEOUT_MS (1500 ms), exiting 1; still running: request POST /api/v1/auth/signup');
  }, 240_000); // two cold starts of the embedded database, slow on a busy machine
});
