import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { JPEG, multipart, PDF, PNG, TEXT, WEBP, file } from '../helpers/multipart.js';
import { staffSession } from '../helpers/staff.js';

/**
 * The platform operator's company calls (`/operator/companies...`, security `operatorKey`): every
 * bound of the seed's Company, the five company types, uniqueness, the operator key and nothing
 * else, the first executive manager and Api-Key a new company gets (and the isolation of the new
 * tenant), logos, and Api-Key rotation.
 */

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const OPERATOR = { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY };
const BASE = '/api/v1/operator/companies';

/** A call as the platform operator: the Operator-Key and no Api-Key. */
const operator = (options: { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; payload?: unknown; headers?: Record<string, string> }) =>
  h.call({ ...options, payload: options.payload as never, apiKey: null, headers: { ...OPERATOR, ...options.headers } });

let serial = 0;
/** A valid create body, each one with its own identifier, subdomain, dbName and manager. */
function companyBody(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    name: `Test Company ${serial}`, identifier: `TEST-CO-${serial}`, email: `info${serial}@test-company.example`, type: 'BROKER',
    kind: 'NON_LIFE', shortName: `TC${serial}`, description: 'A company made by the operator tests.', primaryColor: '#112233',
    smsSenderId: 'TESTCO', subdomain: `test-co-${serial}`, dbName: `test_co_${serial}`, address: '1 Test Road, Accra', country: 'GH',
    executiveManager: { firstName: 'Efua', lastName: 'Owusu', email: `em${serial}@test-company.example`, password: 'Exec-Pass-2026' },
    ...overrides,
  };
}

const create = (body: unknown) => operator({ method: 'POST', url: BASE, payload: body });

describe('the operator key', () => {
  it('is required: missing or wrong answers 401 in the error shape, on every operator call', async () => {
    const calls = [
      { method: 'POST' as const, url: BASE, payload: companyBody() },
      { method: 'GET' as const, url: BASE },
      { method: 'GET' as const, url: `${BASE}/${h.tenantId}` },
      { method: 'PATCH' as const, url: `${BASE}/${h.tenantId}`, payload: { name: 'Hijacked' } },
      { method: 'POST' as const, url: `${BASE}/${h.tenantId}/api-keys`, payload: {} },
      { method: 'DELETE' as const, url: `${BASE}/${h.tenantId}/api-keys/${h.tenantId}` },
    ];
    for (const call of calls) {
      const missing = await h.call({ ...call, apiKey: null });
      expect({ call: call.url, body: missing.json() }).toEqual({
        call: call.url, body: { statusCode: 401, requestId: expect.any(String), message: 'The Operator-Key header is required', error: 'Unauthorized', code: 'MISSING_OPERATOR_KEY' },
      });
      const wrong = await h.call({ ...call, apiKey: null, headers: { 'operator-key': `${DEFAULT_SANDBOX_OPERATOR_KEY}x` } });
      expect({ call: call.url, body: wrong.json() }).toEqual({
        call: call.url, body: { statusCode: 401, requestId: expect.any(String), message: 'The Operator-Key is not valid', error: 'Unauthorized', code: 'INVALID_OPERATOR_KEY' },
      });
    }
    const logo = multipart([file('logo.png', PNG, 'image/png')].map((part) => ({ ...part, field: 'logo' })));
    const upload = await h.call({ method: 'PUT', url: `${BASE}/${h.tenantId}/logo`, apiKey: null, ...logo });
    expect(upload.statusCode).toBe(401);
    const name = await h.db.selectFrom('companies').select('name').where('id', '=', h.tenantId).executeTakeFirstOrThrow();
    expect(name.name).toBe('Coverline Sandbox Brokers');
  });

  it('is not stood in for by an Api-Key, a client token or a staff token (even an executive manager\'s)', async () => {
    const { token: clientToken } = await signUp(h);
    const staff = await staffSession(h, 'exec');
    for (const token of [undefined, clientToken, staff.token]) {
      const res = await h.call({ method: 'GET', url: BASE, token });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('MISSING_OPERATOR_KEY');
    }
    // The Api-Key's value in the Operator-Key header is just a wrong key.
    const res = await h.call({ method: 'GET', url: BASE, apiKey: null, headers: { 'operator-key': h.apiKey } });
    expect(res.json().code).toBe('INVALID_OPERATOR_KEY');
  });

  it('takes the configured key, not the sandbox default, when OPERATOR_KEY is set', async () => {
    const own = await createHarness({ operatorKey: 'k'.repeat(40) });
    try {
      const sandbox = await own.call({ method: 'GET', url: BASE, apiKey: null, headers: OPERATOR });
      expect(sandbox.statusCode).toBe(401);
      const ok = await own.call({ method: 'GET', url: BASE, apiKey: null, headers: { 'operator-key': 'k'.repeat(40) } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('creating a company', () => {
  it('creates the company, its executive manager and its first Api-Key in one call; the key is shown once', async () => {
    const body = companyBody({ firebaseConfig: { projectId: 'test-co-project', clientEmail: 'fb@test-co.example', privateKey: 'PRIVATE', databaseUrl: 'https://test-co.firebaseio.com' }, databaseUri: 'postgres://u:p@db/x' });
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    const { company, executiveManager, apiKey, passwordSetCodeSent } = res.json().data;
    expect(company).toMatchObject({
      name: body.name, identifier: body.identifier, email: body.email, type: 'BROKER', kind: 'NON_LIFE', shortName: body.shortName,
      description: body.description, primaryColor: '#112233', smsSenderId: 'TESTCO', subdomain: body.subdomain, dbName: body.dbName,
      logo: null, address: body.address, country: 'GH', databaseUriSet: true,
      firebaseConfig: { projectId: 'test-co-project', clientEmail: 'fb@test-co.example', databaseUrl: 'https://test-co.firebaseio.com', privateKeySet: true },
    });
    // Secrets are stored, never answered.
    expect(res.body).not.toContain('PRIVATE');
    expect(res.body).not.toContain('postgres://');
    expect(executiveManager).toMatchObject({
      email: body.executiveManager.email, firstName: 'Efua', lastName: 'Owusu', type: 'NORMAL_STAFF', position: 'EXECUTIVE_MANAGER', department: null, isActive: true,
    });
    expect(apiKey).toMatchObject({ mode: 'sandbox', key: expect.stringMatching(/^sk_sandbox_/) });
    expect(apiKey.key.startsWith(apiKey.prefix)).toBe(true);
    expect(passwordSetCodeSent).toBe(false);
    const stored = await h.db.selectFrom('api_keys').selectAll().where('id', '=', apiKey.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toContain(apiKey.key);
    // Reading the company again never shows the key.
    const again = await operator({ method: 'GET', url: `${BASE}/${company.id}` });
    expect(again.json().data).toEqual(company);
    expect(again.body).not.toContain(apiKey.key);
  });

  it('the executive manager logs in with the new Api-Key and reads /staff/me; the new key sees none of the sandbox tenant\'s rows', async () => {
    const body = companyBody();
    const { company, executiveManager, apiKey } = (await create(body)).json().data;
    const login = await h.call({
      method: 'POST', url: '/api/v1/staff/auth/login', apiKey: apiKey.key,
      payload: { username: body.executiveManager.email, password: body.executiveManager.password },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.accessToken;
    const me = await h.call({ method: 'GET', url: '/api/v1/staff/me', apiKey: apiKey.key, token });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: executiveManager.id, position: 'EXECUTIVE_MANAGER', department: null });
    // The token is the new tenant's: with the sandbox key it is refused.
    expect((await h.call({ method: 'GET', url: '/api/v1/staff/me', token })).statusCode).toBe(401);
    // A sandbox staff member cannot log in through the new tenant's key.
    const stranger = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', apiKey: apiKey.key, payload: { username: 'exec@sandbox.coverline.example', password: 'Sandbox-Staff-2026' } });
    expect(stranger.statusCode).toBe(401);
    // The sandbox tenant's clients and products are not the new tenant's.
    const { body: client } = await signUp(h);
    const clientLogin = await h.call({ method: 'POST', url: '/api/v1/auth/login', apiKey: apiKey.key, payload: { username: client.email, password: client.password } });
    expect(clientLogin.statusCode).toBe(401);
    // A client signs up in the new tenant and is the new tenant's; the sandbox tenant's products are not on its list.
    const signedUp = await h.call({ method: 'POST', url: '/api/v1/auth/signup', apiKey: apiKey.key, payload: individualBody() });
    expect(signedUp.statusCode).toBe(201);
    const row = await h.db.selectFrom('clients').select('tenant_id').where('id', '=', signedUp.json().data.id).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(company.id);
    const products = await h.call({ method: 'GET', url: '/api/v1/client/products', apiKey: apiKey.key, token: signedUp.json().data.accessToken });
    expect(products.statusCode).toBe(200);
    expect(products.json().data).toEqual([]);
    const sandboxProducts = await h.call({ method: 'GET', url: '/api/v1/client/products', token: (await signUp(h)).token });
    expect(sandboxProducts.json().data.length).toBeGreaterThan(0);
  });

  it('without a password sends the manager a code to set one through resetStaffPassword', async () => {
    const body = companyBody();
    const { executiveManager } = body as { executiveManager: Record<string, unknown> };
    delete executiveManager.password;
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    const { apiKey, passwordSetCodeSent } = res.json().data;
    expect(passwordSetCodeSent).toBe(true);
    const email = executiveManager.email as string;
    // No password yet: a login fails as a wrong password does.
    const refused = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', apiKey: apiKey.key, payload: { username: email, password: 'Anything-2026' } });
    expect(refused.statusCode).toBe(401);
    const message = await h.db.selectFrom('outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(message.template).toBe('staff-password-set-code');
    const code = /code (\d{6})/.exec(message.body)![1];
    const reset = await h.call({
      method: 'POST', url: '/api/v1/staff/auth/password/reset', apiKey: apiKey.key,
      payload: { username: email, resetCode: code, password: 'My-Own-Pass-2026', passwordConfirm: 'My-Own-Pass-2026' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', apiKey: apiKey.key, payload: { username: email, password: 'My-Own-Pass-2026' } });
    expect(login.statusCode).toBe(200);
  });

  it('takes all five company types and every kind', async () => {
    const kinds = ['NON_LIFE', 'LIFE', 'HEALTH', 'PENSION', 'NON_LIFE'];
    const types = ['INSURER', 'BROKER', 'MICRO_INSURER', 'DIGITAL_AGENT', 'AGENT'];
    for (const [i, type] of types.entries()) {
      const res = await create(companyBody({ type, kind: kinds[i] }));
      expect({ type, status: res.statusCode }).toEqual({ type, status: 201 });
      expect(res.json().data.company).toMatchObject({ type, kind: kinds[i] });
    }
    const bad = await create(companyBody({ type: 'REINSURER' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body.type');
  });

  it('needs only the seed\'s required fields; the subdomain defaults from the identifier', async () => {
    serial += 1;
    const res = await create({
      name: 'Minimal Agency', identifier: `Min Agency ${serial}`, email: `min${serial}@agency.example`, type: 'AGENT', kind: 'LIFE', shortName: 'Min',
      executiveManager: { firstName: 'Kojo', lastName: 'Asante', email: `kojo${serial}@agency.example` },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.company).toMatchObject({
      subdomain: `min-agency-${serial}`, description: null, primaryColor: null, smsSenderId: null, dbName: null, databaseUriSet: false, firebaseConfig: null, logo: null,
    });
  });

  it.each(['name', 'identifier', 'email', 'type', 'kind', 'shortName', 'executiveManager'])('refuses a body without %s (400 naming it)', async (field) => {
    const body: Record<string, unknown> = companyBody();
    delete body[field];
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
    expect(res.json().message).toContain(field);
  });

  it.each([
    ['name', 'ab', 'body.name'],
    ['identifier', 'AB', 'body.identifier'],
    ['subdomain', 'ab', 'body.subdomain'],
    ['dbName', 'ab', 'body.dbName'],
    ['smsSenderId', 'TWELVE-CHARS', 'body.smsSenderId'],
    ['email', 'not-an-email', 'body.email'],
    ['primaryColor', 'blue', 'body.primaryColor'],
    ['subdomain', 'Has Spaces', 'body.subdomain'],
    ['firebaseConfig', { clientEmail: 'x@y.example' }, 'body.firebaseConfig'],
    ['executiveManager', { firstName: 'A', lastName: 'B', email: 'a@b.example', password: 'short' }, 'body.executiveManager.password'],
    ['executiveManager', { firstName: 'A', lastName: 'B' }, 'body.executiveManager'],
    ['unknownField', 'x', 'unknownField'],
  ])('refuses %s = %j (400 naming %s)', async (field, value, named) => {
    const res = await create(companyBody({ [field]: value }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(named);
  });

  it('takes the bounds themselves: 3-character name, identifier, subdomain and dbName, an 11-character smsSenderId', async () => {
    serial += 1;
    const res = await create(companyBody({ name: 'Abc', identifier: `I${serial % 10}x`, subdomain: `s${serial % 10}x`, dbName: `d${serial % 10}x`, smsSenderId: 'ELEVENCHARS' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.company).toMatchObject({ name: 'Abc', smsSenderId: 'ELEVENCHARS' });
  });

  it.each([
    ['identifier', 'IDENTIFIER_TAKEN'],
    ['subdomain', 'SUBDOMAIN_TAKEN'],
    ['dbName', 'DB_NAME_TAKEN'],
  ])('refuses a taken %s with 409 naming it, and writes nothing', async (field, code) => {
    const first = companyBody();
    expect((await create(first)).statusCode).toBe(201);
    const second = companyBody({ [field]: first[field as keyof typeof first] });
    const before = await h.db.selectFrom('companies').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const res = await create(second);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ statusCode: 409, error: 'Conflict', code });
    expect(res.json().message).toContain(`body.${field}`);
    const after = await h.db.selectFrom('companies').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    const staff = await h.db.selectFrom('staff').select('id').where('email', '=', second.executiveManager.email).execute();
    expect(staff).toEqual([]);
  });

  it('takes only JSON', async () => {
    const res = await operator({ method: 'POST', url: BASE, payload: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBe(415);
  });
});

describe('listing, reading and updating companies', () => {
  it('lists every company paged, filtered by type and name', async () => {
    const body = companyBody({ type: 'DIGITAL_AGENT', name: 'Zebra Digital Listing Agent' });
    await create(body);
    const page = await operator({ method: 'GET', url: `${BASE}?limit=2&page=1` });
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toHaveLength(2);
    expect(page.json().paginator).toMatchObject({ limit: 2, page: 1, hasNextPage: true });
    const filtered = await operator({ method: 'GET', url: `${BASE}?type=DIGITAL_AGENT&name=zebra%20digital` });
    expect(filtered.json().data.map((c: { name: string }) => c.name)).toEqual(['Zebra Digital Listing Agent']);
    const bad = await operator({ method: 'GET', url: `${BASE}?type=NOPE` });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 404 for an unknown company and 400 for a bad id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await operator({ method: 'GET', url: `${BASE}/${unknown}` })).statusCode).toBe(404);
    expect((await operator({ method: 'PATCH', url: `${BASE}/${unknown}`, payload: { name: 'Nobody' } })).statusCode).toBe(404);
    expect((await operator({ method: 'GET', url: `${BASE}/not-a-uuid` })).statusCode).toBe(400);
  });

  it('updates every field with the same bounds; null clears a nullable one', async () => {
    const { company } = (await create(companyBody({ firebaseConfig: { projectId: 'before-project' } }))).json().data;
    serial += 1;
    const changes = {
      name: 'Renamed Company', identifier: `RENAMED-${serial}`, email: `renamed${serial}@test.example`, type: 'INSURER', kind: 'HEALTH',
      shortName: 'Renamed', description: 'Now a health insurer.', primaryColor: '#ABCDEF', smsSenderId: 'RENAMED', subdomain: `renamed-${serial}`,
      dbName: `renamed_${serial}`, databaseUri: 'postgres://new', firebaseConfig: { projectId: 'after-project' }, address: 'New Road', country: 'NG',
    };
    const res = await operator({ method: 'PATCH', url: `${BASE}/${company.id}`, payload: changes });
    expect(res.statusCode).toBe(200);
    const { databaseUri, firebaseConfig, ...plain } = changes;
    expect(res.json().data).toMatchObject({ ...plain, databaseUriSet: true, firebaseConfig: { projectId: 'after-project', privateKeySet: false } });
    const cleared = await operator({ method: 'PATCH', url: `${BASE}/${company.id}`, payload: { description: null, dbName: null, firebaseConfig: null, databaseUri: null } });
    expect(cleared.json().data).toMatchObject({ name: 'Renamed Company', description: null, dbName: null, firebaseConfig: null, databaseUriSet: false });
    void databaseUri; void firebaseConfig;
  });

  it.each([
    [{ name: 'ab' }, 'body.name'], [{ identifier: 'ab' }, 'body.identifier'], [{ subdomain: 'ab' }, 'body.subdomain'],
    [{ dbName: 'ab' }, 'body.dbName'], [{ smsSenderId: '123456789012' }, 'body.smsSenderId'], [{ type: 'BANK' }, 'body.type'],
    [{ name: null }, 'body.name'], [{ executiveManager: { firstName: 'A' } }, 'executiveManager'], [{}, 'body'],
  ])('refuses an update %j (400 naming %s)', async (payload, named) => {
    const res = await operator({ method: 'PATCH', url: `${BASE}/${h.otherTenantId}`, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(named);
  });

  it('refuses to take another company\'s identifier, subdomain or dbName (409 naming the field)', async () => {
    const a = (await create(companyBody())).json().data.company;
    const b = (await create(companyBody())).json().data.company;
    for (const [field, code] of [['identifier', 'IDENTIFIER_TAKEN'], ['subdomain', 'SUBDOMAIN_TAKEN'], ['dbName', 'DB_NAME_TAKEN']]) {
      const res = await operator({ method: 'PATCH', url: `${BASE}/${b.id}`, payload: { [field]: a[field] } });
      expect({ field, status: res.statusCode, code: res.json().code }).toEqual({ field, status: 409, code });
      expect(res.json().message).toContain(`body.${field}`);
    }
  });
});

describe('logos', () => {
  const logoPart = (filename: string, data: Buffer, contentType = 'image/png') => ({ ...file(filename, data, contentType), field: 'logo' });
  const upload = (companyId: string, parts: ReturnType<typeof logoPart>[]) =>
    operator({ method: 'PUT', url: `${BASE}/${companyId}/logo`, ...multipart(parts) } as never);

  it('stores a PNG, JPEG or WebP judged by its bytes, serves it back at the company\'s logo URL, and replaces it', async () => {
    const { company } = (await create(companyBody())).json().data;
    const res = await upload(company.id, [logoPart('logo.png', PNG)]);
    expect(res.statusCode).toBe(200);
    const { logo } = res.json().data;
    expect(logo).toBe(`${h.config.publicBaseUrl}/api/v1/companies/${company.id}/logo`);
    const served = await h.call({ method: 'GET', url: `/api/v1/companies/${company.id}/logo`, apiKey: null });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // The public directory shows it too.
    const directory = await h.call({ method: 'GET', url: `/api/v1/client/companies?name=${encodeURIComponent(company.name)}` });
    expect(directory.json().data[0].logo).toBe(logo);
    // Named .png but a JPEG: the bytes decide.
    expect((await upload(company.id, [logoPart('logo.png', JPEG)])).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: `/api/v1/companies/${company.id}/logo`, apiKey: null })).headers['content-type']).toBe('image/jpeg');
    expect((await upload(company.id, [logoPart('logo.webp', WEBP, 'image/webp')])).statusCode).toBe(200);
  });

  it('refuses other types (415), a file over 1 MiB (413), no or extra parts (400), and a body that is not multipart (415)', async () => {
    const { company } = (await create(companyBody())).json().data;
    for (const data of [PDF, TEXT]) {
      const res = await upload(company.id, [logoPart('logo.png', data)]);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE', message: expect.stringContaining('logo "logo.png"') });
    }
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]);
    const tooBig = await upload(company.id, [logoPart('big.png', big)]);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('FILE_TOO_LARGE');
    const wrongField = await upload(company.id, [{ ...logoPart('logo.png', PNG), field: 'files' }]);
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().code).toBe('UNEXPECTED_FIELD');
    const two = await upload(company.id, [logoPart('a.png', PNG), logoPart('b.png', PNG)]);
    expect(two.statusCode).toBe(400);
    const json = await operator({ method: 'PUT', url: `${BASE}/${company.id}/logo`, payload: { logo: 'x' } });
    expect(json.statusCode).toBe(415);
    // Nothing was kept: the company still has no logo.
    expect((await operator({ method: 'GET', url: `${BASE}/${company.id}` })).json().data.logo).toBeNull();
    expect((await h.call({ method: 'GET', url: `/api/v1/companies/${company.id}/logo`, apiKey: null })).statusCode).toBe(404);
    expect((await upload('00000000-0000-4000-8000-000000000000', [logoPart('logo.png', PNG)])).statusCode).toBe(404);
  });
});

describe('Api-Key rotation', () => {
  it('creates a new key (in clear once) that works, and revokes the old one, which then answers 401', async () => {
    const body = companyBody();
    const { company, apiKey: first } = (await create(body)).json().data;
    const made = await operator({ method: 'POST', url: `${BASE}/${company.id}/api-keys`, payload: { name: 'rotated' } });
    expect(made.statusCode).toBe(201);
    const second = made.json().data;
    expect(second).toMatchObject({ name: 'rotated', mode: 'sandbox', key: expect.stringMatching(/^sk_sandbox_/) });
    const loginWith = (key: string) => h.call({
      method: 'POST', url: '/api/v1/staff/auth/login', apiKey: key,
      payload: { username: body.executiveManager.email, password: body.executiveManager.password },
    });
    expect((await loginWith(second.key)).statusCode).toBe(200);
    const revoked = await operator({ method: 'DELETE', url: `${BASE}/${company.id}/api-keys/${first.id}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ statusCode: 200, success: true, message: 'Api-Key revoked' });
    const refused = await loginWith(first.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('INVALID_API_KEY');
    expect((await loginWith(second.key)).statusCode).toBe(200);
    // Again: nothing changes. Another company's key: 404.
    expect((await operator({ method: 'DELETE', url: `${BASE}/${company.id}/api-keys/${first.id}` })).statusCode).toBe(200);
    expect((await operator({ method: 'DELETE', url: `${BASE}/${h.otherTenantId}/api-keys/${second.id}` })).statusCode).toBe(404);
    expect((await operator({ method: 'POST', url: `${BASE}/00000000-0000-4000-8000-000000000000/api-keys`, payload: {} })).statusCode).toBe(404);
  });
});

describe('not staff operations', () => {
  it('are not in the staff permission table', async () => {
    const { PERMISSIONS } = await import('../../server/domain/staff/permissions.js');
    for (const id of ['createCompany', 'listOperatorCompanies', 'getOperatorCompany', 'updateOperatorCompany', 'uploadCompanyLogo', 'createCompanyApiKey', 'revokeCompanyApiKey']) {
      expect(Object.keys(PERMISSIONS)).not.toContain(id);
    }
  });
});
