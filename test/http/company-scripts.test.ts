import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../server/app/app.js';
import { loadConfig } from '../../server/platform/config.js';
import { openDatabase } from '../../server/platform/db/database.js';
import { PNG } from '../helpers/multipart.js';

/**
 * `npm run company:create` and `company:update` as an operator runs them on the server: a child
 * process against the embedded database in a fresh DATA_DIR (or, with DATABASE_URL, a throw-away
 * schema on the PostgreSQL server); then the API over that same database lets the new executive
 * manager log in with the printed Api-Key.
 */

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-company-script-'));
const url = process.env.DATABASE_URL;
const schema = url ? `t_${randomBytes(6).toString('hex')}` : undefined;
/** The child's database: the schema through the connection's search_path on PostgreSQL. */
const childUrl = url && schema ? `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` : '';
const env = { ...process.env, DATABASE_URL: childUrl, DATA_DIR: dataDir, JWT_SECRET: 'script-test-secret-that-is-long-enough-0123', NODE_ENV: 'development', LOG_LEVEL: 'silent' };

const script = (name: string, args: string[]) =>
  run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { cwd: process.cwd(), env, timeout: 120_000 });

beforeAll(async () => {
  if (url && schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (url && schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
});

/** The API over the scripts' database, for one check; closed afterwards. */
async function withApp<T>(work: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const handle = await openDatabase({ databaseUrl: url, dataDir, schema });
  const app = await buildApp({ config, db: handle.db });
  await app.ready();
  try {
    return await work(app);
  } finally {
    await app.close();
    await handle.close();
  }
}

describe('npm run company:create and company:update', () => {
  let created: any;

  it('company:create makes the company, its executive manager and first Api-Key and prints them', async () => {
    const logo = path.join(dataDir, 'logo.png');
    writeFileSync(logo, PNG);
    const { stdout } = await script('company-create', [
      '--name', 'Script Micro Insurance', '--identifier', 'SCRIPT-MICRO', '--email', 'info@script-micro.example', '--type', 'MICRO_INSURER',
      '--kind', 'HEALTH', '--short-name', 'SMI', '--sms-sender-id', 'SCRIPTMICRO', '--db-name', 'script_micro', '--firebase-project-id', 'script-micro-app',
      '--logo', logo, '--manager-first-name', 'Yaa', '--manager-last-name', 'Asantewaa', '--manager-email', 'yaa@script-micro.example',
      '--manager-password', 'Script-Pass-2026', '--json',
    ]);
    created = JSON.parse(stdout);
    expect(created.company).toMatchObject({
      name: 'Script Micro Insurance', identifier: 'SCRIPT-MICRO', type: 'MICRO_INSURER', kind: 'HEALTH', shortName: 'SMI', smsSenderId: 'SCRIPTMICRO',
      subdomain: 'script-micro', dbName: 'script_micro', firebaseConfig: { projectId: 'script-micro-app' }, logo: expect.stringMatching(/\/companies\/.+\/logo$/),
    });
    expect(created.executiveManager).toMatchObject({ email: 'yaa@script-micro.example', position: 'EXECUTIVE_MANAGER', type: 'NORMAL_STAFF', department: null });
    expect(created.apiKey.key).toMatch(/^sk_sandbox_/);

    // The API over the same database: the manager logs in with the printed key, and the logo is served.
    await withApp(async (app) => {
      const login = await app.inject({
        method: 'POST', url: '/api/v1/staff/auth/login', headers: { 'api-key': created.apiKey.key },
        payload: { username: 'yaa@script-micro.example', password: 'Script-Pass-2026' },
      });
      expect(login.statusCode).toBe(200);
      const me = await app.inject({ method: 'GET', url: '/api/v1/staff/me', headers: { 'api-key': created.apiKey.key, authorization: `Bearer ${login.json().data.accessToken}` } });
      expect(me.json().data.id).toBe(created.executiveManager.id);
      const served = await app.inject({ method: 'GET', url: `/api/v1/companies/${created.company.id}/logo` });
      expect(served.rawPayload.equals(PNG)).toBe(true);
    });
  }, 180_000); // a child process that opens and migrates a database, then the app over it

  it('company:create refuses a bound or a taken identifier with the API\'s message and exit code 1, writing nothing', async () => {
    const base = ['--email', 'x@script.example', '--type', 'AGENT', '--kind', 'LIFE', '--short-name', 'X',
      '--manager-first-name', 'A', '--manager-last-name', 'B', '--manager-email', 'a@script.example'];
    const short = await script('company-create', ['--name', 'ab', '--identifier', 'NEW-ONE', ...base]).catch((error) => error);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('company.name must NOT have fewer than 3 characters');
    const sms = await script('company-create', ['--name', 'Fine Name', '--identifier', 'NEW-TWO', '--sms-sender-id', 'TWELVECHARSX', ...base]).catch((error) => error);
    expect(sms.code).toBe(1);
    expect(sms.stderr).toContain('company.smsSenderId');
    const taken = await script('company-create', ['--name', 'Fine Name', '--identifier', 'SCRIPT-MICRO', ...base]).catch((error) => error);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('IDENTIFIER_TAKEN');
    const missing = await script('company-create', ['--name', 'Fine Name']).catch((error) => error);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('identifier');
  }, 180_000);

  it('company:update changes the fields given, clears one, and rotates the Api-Key', async () => {
    const { stdout } = await script('company-update', [
      '--id', created.company.id, '--name', 'Script Micro Insurance Ltd', '--primary-color', '#00AA55', '--clear', 'firebase',
      '--new-api-key', 'rotated', '--revoke-api-key', created.apiKey.id, '--json',
    ]);
    const answer = JSON.parse(stdout);
    expect(answer.company).toMatchObject({ name: 'Script Micro Insurance Ltd', primaryColor: '#00AA55', firebaseConfig: null, identifier: 'SCRIPT-MICRO' });
    expect(answer.apiKey).toMatchObject({ name: 'rotated', key: expect.stringMatching(/^sk_sandbox_/) });
    await withApp(async (app) => {
      const loginWith = (key: string) => app.inject({
        method: 'POST', url: '/api/v1/staff/auth/login', headers: { 'api-key': key },
        payload: { username: 'yaa@script-micro.example', password: 'Script-Pass-2026' },
      });
      expect((await loginWith(created.apiKey.key)).statusCode).toBe(401);
      expect((await loginWith(answer.apiKey.key)).statusCode).toBe(200);
    });
    const bad = await script('company-update', ['--id', created.company.id, '--sms-sender-id', 'TWELVECHARSX']).catch((error) => error);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('company.smsSenderId');
  }, 180_000);
});
