import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm start` as a user runs it: a real process on the embedded database in a fresh DATA_DIR.

const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-start-'));
const KEY = 'sk_sandbox_process_test_key_000000';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function start(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/app/main.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), SANDBOX_API_KEY: KEY, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const deadline = Date.now() + 60_000;
  while (!output.includes('listening on')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output };
}

function send(port: number, method: string, url: string, body?: object, beforeEnd?: () => Promise<void>) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : '';
    const req = request({ host: '127.0.0.1', port, method, path: url, headers: {
      'api-key': KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload),
    } }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    // Half the body first: the request is in flight when `beforeEnd` runs.
    req.write(payload.slice(0, 10));
    (beforeEnd ?? (async () => {}))().then(() => req.end(payload.slice(10)), reject);
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => {
  if (child.exitCode !== null) resolve(child.exitCode); else child.on('exit', (code) => resolve(code));
});

describe('npm start', () => {
  it('prints how to call it, finishes in-flight requests on SIGTERM, and keeps its data across restarts', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toContain(`http://127.0.0.1:${port}/api/v1`);
    expect(first.output()).toContain(`Sandbox Api-Key: ${KEY}`);
    expect(first.output()).toContain('curl');

    const signup = { type: 'INDIVIDUAL', firstName: 'Esi', lastName: 'Boateng', email: 'esi@example.com', password: 's3cure-Pass', country: 'GH', groups: [] };
    const answer = await send(port, 'POST', '/api/v1/auth/signup', signup, async () => {
      // Let the headers reach the server, so the request is in flight when the signal comes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      first.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(answer.status).toBe(201);
    expect(await exited(first.child)).toBe(0);

    const second = await start(port);
    const login = await send(port, 'POST', '/api/v1/auth/login', { username: 'esi@example.com', password: 's3cure-Pass' });
    expect(login.status).toBe(200);
    expect(login.json.data.email).toBe('esi@example.com');
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 90_000);
});
