/**
 * The SDK as an integrator gets it: the tarball `npm run sdk` packs (generated/coverline-sdk-*.tgz)
 * installed with npm into a scratch project of its own, then imported (Node ESM and CommonJS) and
 * type-checked (TypeScript, node16 resolution) there, and used to call a real server on a real port.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { publishedDocument } from '../../server/platform/openapi.js';
import { createHarness, type Harness } from '../helpers/harness.js';

const run = promisify(execFile);
const generated = path.join(process.cwd(), 'generated');
const tarball = existsSync(generated) ? readdirSync(generated).find((f) => /^coverline-sdk-.*\.tgz$/.test(f)) : undefined;
if (!tarball) console.warn('test/http/sdk-package.test.ts: SKIPPED: no generated/coverline-sdk-*.tgz. Run `npm run sdk` to pack the SDK and test it.');
const describePackage = tarball ? describe : describe.skip;

let h: Harness;
let basePath: string;
let project: string;

beforeAll(async () => {
  if (!tarball) return;
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  basePath = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/api/v1`;
  project = mkdtempSync(path.join(tmpdir(), 'coverline-sdk-consumer-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }));
  // The SDK has no dependencies: the install needs the tarball alone, no registry.
  await run('npm', ['install', '--no-audit', '--no-fund', '--offline', '--ignore-scripts', path.join(generated, tarball)], { cwd: project, timeout: 120_000 });
}, 180_000);
afterAll(async () => {
  if (!tarball) return;
  await h.close();
  rmSync(project, { recursive: true, force: true });
});

describePackage('the packed SDK (@coverline/sdk) installed into a project of its own', () => {
  it('carries the contract\'s version and its types', () => {
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/@coverline/sdk/package.json'), 'utf8'));
    const [major, minor, patch = '0'] = String(publishedDocument().info.version).split('.');
    expect({ name: installed.name, version: installed.version, types: installed.types })
      .toEqual({ name: '@coverline/sdk', version: `${major}.${minor}.${patch}`, types: './dist/index.d.ts' });
    expect(existsSync(path.join(project, 'node_modules/@coverline/sdk/README.md'))).toBe(true);
  });

  it('getHealth, signUp and login from Node ESM (import) and CommonJS (require), against the API', async () => {
    const email = `sdk.package.${Date.now()}@example.com`;
    writeFileSync(path.join(project, 'first-call.mjs'), `
      import { AuthorizationApi, Configuration, SystemApi, ResponseError } from '@coverline/sdk';
      const [basePath, apiKey, email] = process.argv.slice(2);
      const health = await new SystemApi(new Configuration({ basePath })).getHealth();
      const auth = new AuthorizationApi(new Configuration({ basePath, apiKey }));
      const signUp = { type: 'INDIVIDUAL', firstName: 'Esi', lastName: 'Mensah', email, password: 's3cure-Pass', country: 'GH', groups: [] };
      const created = await auth.signUp({ signUpRequest: signUp });
      const session = await auth.login({ loginRequest: { username: email, password: 's3cure-Pass' } });
      let refused;
      try { await auth.login({ loginRequest: { username: email, password: 'wrong-Pass1' } }); } catch (e) { refused = e instanceof ResponseError ? (await e.response.json()).code : String(e); }
      console.log(JSON.stringify({ version: health.version, email: created.data.email, token: typeof session.data.accessToken, refused }));
    `);
    writeFileSync(path.join(project, 'require.cjs'), `
      const sdk = require('@coverline/sdk');
      console.log(JSON.stringify({ configuration: typeof sdk.Configuration, policies: typeof sdk.PoliciesApi }));
    `);
    const esm = await run('node', ['first-call.mjs', basePath, h.apiKey, email], { cwd: project, timeout: 60_000 });
    expect(JSON.parse(esm.stdout)).toEqual({ version: publishedDocument().info.version, email, token: 'string', refused: 'INVALID_CREDENTIALS' });
    const cjs = await run('node', ['require.cjs'], { cwd: project, timeout: 60_000 });
    expect(JSON.parse(cjs.stdout)).toEqual({ configuration: 'function', policies: 'function' });
  }, 120_000);

  it('type-checks a TypeScript consumer (strict, node16 resolution) and refuses a wrongly typed call', async () => {
    const tsc = path.join(process.cwd(), 'node_modules/typescript/bin/tsc');
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { noEmit: true, strict: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
      files: ['consumer.ts'],
    }));
    const compile = (source: string) => {
      writeFileSync(path.join(project, 'consumer.ts'), source);
      return run('node', [tsc, '-p', '.'], { cwd: project, timeout: 120_000 }).then(() => 'ok', (e) => String(e.stdout));
    };
    await expect(compile(`
      import { AuthorizationApi, Configuration } from '@coverline/sdk';
      const auth = new AuthorizationApi(new Configuration({ basePath: 'http://localhost:3000/api/v1', apiKey: 'k' }));
      export const token: Promise<string> = auth.login({ loginRequest: { username: 'a@example.com', password: 'p' } }).then((s) => s.data.accessToken);
    `)).resolves.toBe('ok');
    await expect(compile(`
      import { AuthorizationApi, Configuration } from '@coverline/sdk';
      const auth = new AuthorizationApi(new Configuration({}));
      export const wrong = auth.login({ loginRequest: { username: 'a@example.com' } });
    `)).resolves.toMatch(/password/);
  }, 240_000);
});
