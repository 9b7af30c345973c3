import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';

// A stand-in for Google's key endpoint: the server fetches this JWKS over HTTP like the real one.
let h: Harness;
let jwks: Server;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;
const PROJECT = 'coverline-sandbox';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  jwks = createServer((_, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ keys: [publicJwk] })); });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const { port } = jwks.address() as AddressInfo;
  h = await createHarness({ firebaseJwksUrl: `http://127.0.0.1:${port}/jwks` });
});
afterAll(async () => { await h.close(); await new Promise((resolve) => jwks.close(resolve)); });

function firebaseToken(claims: Record<string, unknown>, options: { key?: CryptoKey; audience?: string; expiresIn?: string; kid?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key' })
    .setIssuer(`https://securetoken.google.com/${options.audience ?? PROJECT}`)
    .setAudience(options.audience ?? PROJECT)
    .setSubject((claims.sub as string) ?? 'firebase-uid-1')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(options.key ?? signingKey);
}

const login = (firebaseToken: string, apiKey?: string) => h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { firebaseToken }, apiKey });

describe('login with a Firebase ID token', () => {
  it('signs in the client with the verified email, links the Firebase user, and later matches by that link', async () => {
    const { body, account } = await signUp(h);
    const token = await firebaseToken({ sub: 'uid-email-1', email: body.email, email_verified: true });
    const res = await login(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: account.id, tokenType: 'Bearer' });
    const row = await h.db.selectFrom('clients').select('firebase_uid').where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(row.firebase_uid).toBe('uid-email-1');
    // The link is kept: a token without email still finds the client.
    expect((await login(await firebaseToken({ sub: 'uid-email-1' }))).json().data.id).toBe(account.id);
  });

  it('matches by phone number', async () => {
    const { body, account } = await signUp(h);
    const res = await login(await firebaseToken({ sub: 'uid-phone-1', phone_number: body.phoneNumber }));
    expect(res.json().data.id).toBe(account.id);
  });

  it('does not trust an unverified email', async () => {
    const { body } = await signUp(h);
    const res = await login(await firebaseToken({ sub: 'uid-unverified', email: body.email, email_verified: false }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('does not let a second Firebase user take over a linked account', async () => {
    const { body } = await signUp(h);
    await login(await firebaseToken({ sub: 'uid-owner', email: body.email, email_verified: true }));
    const res = await login(await firebaseToken({ sub: 'uid-intruder', email: body.email, email_verified: true }));
    expect(res.json().code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('refuses tokens for another project, expired, signed by another key or with an unknown key id', async () => {
    const { body } = await signUp(h);
    const claims = { sub: 'uid-bad', email: body.email, email_verified: true };
    for (const token of [
      await firebaseToken(claims, { audience: 'someone-elses-project' }),
      await firebaseToken(claims, { expiresIn: '-1m' }),
      await firebaseToken(claims, { key: strangerKey }),
      await firebaseToken(claims, { kid: 'rotated-away' }),
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.aaaaaaaaaaaaaaaaaaaa',
    ]) {
      const res = await login(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_FIREBASE_TOKEN', error: 'Unauthorized' });
    }
  });

  it('answers 400 when the tenant has no Firebase project', async () => {
    await h.db.updateTable('companies').set({ firebase_project_id: null }).where('id', '=', h.otherTenantId).execute();
    const { body } = await signUp(h, individualBody(), h.otherApiKey);
    const res = await login(await firebaseToken({ sub: 'uid-x', email: body.email, email_verified: true }), h.otherApiKey);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('FIREBASE_NOT_CONFIGURED');
  });
});

describe("the company's Firebase config, set by the platform operator, decides the project", () => {
  const operatorHeaders = { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY };

  it("a company created with a firebaseConfig signs its clients in with that project's tokens only", async () => {
    const created = await h.call({
      method: 'POST', url: '/api/v1/operator/companies', apiKey: null, headers: operatorHeaders,
      payload: {
        name: 'Firebase Agency', identifier: 'FIREBASE-AGENCY', email: 'info@firebase-agency.example', type: 'AGENT', kind: 'NON_LIFE',
        shortName: 'FBA', firebaseConfig: { projectId: 'firebase-agency-app' },
        executiveManager: { firstName: 'Ama', lastName: 'Boateng', email: 'ama@firebase-agency.example', password: 'Exec-Pass-2026' },
      },
    });
    expect(created.statusCode).toBe(201);
    const { company, apiKey } = created.json().data;
    const { body, account } = await signUp(h, individualBody(), apiKey.key);
    const claims = { sub: 'uid-agency-1', email: body.email, email_verified: true };
    const ok = await login(await firebaseToken(claims, { audience: 'firebase-agency-app' }), apiKey.key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.id).toBe(account.id);
    // The sandbox project's token is not this company's.
    const other = await login(await firebaseToken(claims), apiKey.key);
    expect(other.json().code).toBe('INVALID_FIREBASE_TOKEN');

    // The operator moves the company to another project: the old project's tokens stop working.
    const moved = await h.call({
      method: 'PATCH', url: `/api/v1/operator/companies/${company.id}`, apiKey: null, headers: operatorHeaders,
      payload: { firebaseConfig: { projectId: 'firebase-agency-v2' } },
    });
    expect(moved.statusCode).toBe(200);
    expect((await login(await firebaseToken(claims, { audience: 'firebase-agency-app' }), apiKey.key)).json().code).toBe('INVALID_FIREBASE_TOKEN');
    expect((await login(await firebaseToken(claims, { audience: 'firebase-agency-v2' }), apiKey.key)).statusCode).toBe(200);

    // And turns Firebase login off.
    await h.call({ method: 'PATCH', url: `/api/v1/operator/companies/${company.id}`, apiKey: null, headers: operatorHeaders, payload: { firebaseConfig: null } });
    const off = await login(await firebaseToken(claims, { audience: 'firebase-agency-v2' }), apiKey.key);
    expect(off.statusCode).toBe(400);
    expect(off.json().code).toBe('FIREBASE_NOT_CONFIGURED');
  });

  it("a company's firebaseConfig takes precedence over its older Firebase project", async () => {
    await h.db.updateTable('companies').set({ firebase_project_id: 'legacy-project', firebase_config: JSON.stringify({ projectId: 'configured-project' }) })
      .where('id', '=', h.otherTenantId).execute();
    const { body } = await signUp(h, individualBody(), h.otherApiKey);
    const claims = { sub: 'uid-precedence', email: body.email, email_verified: true };
    expect((await login(await firebaseToken(claims, { audience: 'legacy-project' }), h.otherApiKey)).json().code).toBe('INVALID_FIREBASE_TOKEN');
    expect((await login(await firebaseToken(claims, { audience: 'configured-project' }), h.otherApiKey)).statusCode).toBe(200);
  });
});
