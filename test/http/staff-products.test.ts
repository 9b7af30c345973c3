import { readFileSync } from 'node:fs';
import { ensureApiKey, ensureCompany } from '../../server/platform/db/seed.js';
import { createHarness, EXAMPLES_DAY, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Products by staff: an insurer (the harness's other tenant, an INSURER) creates, changes,
 * (de)activates and assigns its products; the sandbox tenant, a BROKER, creates none and sells what
 * is assigned to it; a third tenant, a MICRO_INSURER, underwrites its own. Clients see ACTIVE
 * ONLINE products only; staff see OFFLINE and DEACTIVATED ones too.
 */

let h: Harness;
/** Sessions: `{ token, apiKey }`, and the staff member's id for staff. */
interface Session { token: string; apiKey: string; id?: string }
let insurer: Record<'exec' | 'head' | 'officer' | 'agent', Session & { id: string }>;
let micro: Session & { id: string };
let microTenantId: string;
let broker: Record<'exec' | 'officer' | 'agent', Session & { id: string }>;
let brokerClient: Session;
let insurerClient: Session;
let autoRates: Record<string, number>;

/** A staff member of `tenantId`, written straight to the table, and a token signed as a login signs one. */
async function newStaff(tenantId: string, apiKey: string, position: string, type = 'NORMAL_STAFF', departmentId: string | null = null) {
  const n = Math.random().toString(36).slice(2, 10);
  const row = await h.db.insertInto('staff').values({
    tenant_id: tenantId, email: `${position.toLowerCase()}.${n}@example.com`, first_name: 'Test', last_name: position,
    type: type as 'NORMAL_STAFF', position: position as 'EXECUTIVE_MANAGER', department_id: departmentId,
  }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
  const { token } = await h.app.services.signStaffAccessToken({ tenantId, staffId: row.id, sessionVersion: row.session_version });
  return { id: row.id, token, apiKey };
}

async function departmentOf(tenantId: string) {
  const branch = await h.db.insertInto('branches').values({ tenant_id: tenantId, name: 'Head Office' }).returning('id').executeTakeFirstOrThrow();
  return (await h.db.insertInto('departments').values({ tenant_id: tenantId, branch_id: branch.id, name: 'Underwriting' })
    .returning('id').executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(EXAMPLES_DAY); // the policy example's dates start after it
  const department = await departmentOf(h.otherTenantId);
  insurer = {
    exec: await newStaff(h.otherTenantId, h.otherApiKey, 'EXECUTIVE_MANAGER'),
    head: await newStaff(h.otherTenantId, h.otherApiKey, 'HEAD_OF_DEPARTMENT', 'NORMAL_STAFF', department),
    officer: await newStaff(h.otherTenantId, h.otherApiKey, 'LEVEL_OFFICER', 'NORMAL_STAFF', department),
    agent: await newStaff(h.otherTenantId, h.otherApiKey, 'LEVEL_OFFICER', 'AGENT', department),
  };
  microTenantId = await ensureCompany(h.db, {
    name: 'Third Micro Insurance', identifier: 'THIRD-MICRO', email: 'ops@third-micro.example', type: 'MICRO_INSURER', kind: 'LIFE',
    shortName: 'Third', description: 'A micro-insurer tenant', primaryColor: '#123456', smsSenderId: 'THIRD', subdomain: 'thirdmicro',
    address: 'Kumasi', country: 'GH',
  });
  const microKey = `sk_test_micro_${Math.random().toString(36).slice(2)}`;
  await ensureApiKey(h.db, microTenantId, microKey);
  micro = await newStaff(microTenantId, microKey, 'EXECUTIVE_MANAGER');
  const session = async (handle: string) => { const s = await staffSession(h, handle); return { id: s.id, token: s.token, apiKey: s.apiKey }; };
  broker = { exec: await session('exec'), officer: await session('officer'), agent: await session('agent') };
  brokerClient = { token: (await signUp(h)).token, apiKey: h.apiKey };
  insurerClient = { token: (await signUp(h, individualBody(), h.otherApiKey)).token, apiKey: h.otherApiKey };
  autoRates = (await h.db.selectFrom('products').select('premium_rates').where('code', '=', 'AUTO-ONLINE').executeTakeFirstOrThrow()).premium_rates;
});
afterAll(async () => { await h.close(); });

const call = (as: Session, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token: as.token, apiKey: as.apiKey, ...(payload !== undefined && { payload }) });
const create = (as: Session, body: object) => call(as, 'POST', '/staff/products', body);
const staffList = (as: Session, query = '') => call(as, 'GET', `/staff/products${query}`);
const codesOf = (res: { json(): { data: { code: string }[] } }) => res.json().data.map((p) => p.code);

let seq = 0;
/** A product body with a fresh code. */
const productBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Motor Fleet Cover', code: `FLEET-${++seq}`, category: 'AUTO', premiumRates: autoRates, ...overrides,
});
async function created(as: Session, overrides: Record<string, unknown> = {}) {
  const res = await create(as, productBody(overrides));
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The auto policy example, on this product. */
function autoPolicy(productId: string) {
  const bundle = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
  const example = bundle.paths['/client/policies/auto'].post.requestBody.content['application/json'].examples['new-business'].value;
  return { ...example, productId };
}
const buy = (as: Session, productId: string) => call(as, 'POST', '/client/policies/auto', autoPolicy(productId));

describe('createStaffProduct: POST /staff/products', () => {
  it("creates a product of the insurer's own, with the seed's defaults and createdBy", async () => {
    const res = await create(insurer.exec, {
      name: 'Motor Fleet Cover', code: 'AUTO-FLEET', category: 'AUTO', description: 'Fleets, sold by staff.', subCategory: 'FLEET',
      premiumRates: autoRates, benefits: ['Own damage'], insurerId: h.otherTenantId,
      standardCommission: { type: 'PERCENTAGE', value: 12.5 }, overriderCommission: { type: 'PERCENTAGE', value: 100 },
      otherCommission: { type: 'FEE', value: 150.75 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Motor Fleet Cover', code: 'AUTO-FLEET', status: 'ACTIVE', distribution: 'OFFLINE', insurerId: h.otherTenantId,
      insurer: { id: h.otherTenantId, type: 'INSURER' }, createdBy: insurer.exec.id, assignedTo: [], assignedAt: null, assignedBy: null,
      standardCommission: { type: 'PERCENTAGE', value: 12.5 }, overriderCommission: { type: 'PERCENTAGE', value: 100 },
      otherCommission: { type: 'FEE', value: 150.75 }, statusChangedBy: null, statusChangedAt: null, subCategory: 'FLEET',
    });
    const minimal = await create(insurer.head, { name: 'Home', code: 'HOME-1', category: 'HOME' });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json().data).toMatchObject({
      status: 'ACTIVE', distribution: 'OFFLINE', premiumRates: {}, benefits: [], description: null, subCategory: null,
      standardCommission: null, overriderCommission: null, otherCommission: null, createdBy: insurer.head.id,
    });
    // Exact decimals reach the database as written.
    const row = await h.db.selectFrom('products').select('other_commission').where('code', '=', 'AUTO-FLEET').executeTakeFirstOrThrow();
    expect(row.other_commission).toEqual({ type: 'FEE', value: 150.75 });
    // The table refuses commission shapes the API would never write (migration 014).
    for (const bad of [{ type: 'PERCENTAGE', value: 101 }, { type: 'FEE', value: -1 }, { type: 'FEE', value: 1.005 }, { type: 'BONUS', value: 1 }, { value: '5' }]) {
      await expect(h.db.updateTable('products').set({ standard_commission: JSON.stringify(bad) }).where('code', '=', 'AUTO-FLEET').execute())
        .rejects.toThrow(/products_standard_commission_shape/);
    }
  });

  it('answers 409 for a code the insurer already uses', async () => {
    await created(insurer.exec, { code: 'TAKEN-1' });
    expect((await create(insurer.exec, productBody({ code: 'TAKEN-1' }))).json())
      .toMatchObject({ statusCode: 409, code: 'PRODUCT_CODE_TAKEN', message: 'body.code: the insurer already has a product with code TAKEN-1' });
  });

  it.each([
    ['name', { name: 'A' }], ['name', { name: 'x'.repeat(101) }], ['code', { code: 'A' }], ['code', { code: '-bad' }],
    ['code', { code: 'x'.repeat(51) }], ['description', { description: '' }], ['description', { description: 'x'.repeat(2001) }],
    ['premiumRates', { premiumRates: { rate: -1 } }], ['premiumRates', { premiumRates: { '1rate': 1 } }],
    ['premiumRates', { premiumRates: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`r${i}`, 1])) }],
    ['premiumRates', { premiumRates: { rate: 'high' } }],
    ['category', { category: 'SPACE_TRAVEL' }], ['subCategory', { subCategory: '' }], ['subCategory', { subCategory: 'x'.repeat(101) }],
    ['benefits', { benefits: [''] }], ['benefits', { benefits: ['x'.repeat(501)] }], ['benefits', { benefits: Array(51).fill('b') }],
    ['status', { status: 'PAUSED' }], ['distribution', { distribution: 'BOTH' }], ['insurerId', { insurerId: 'gold-coast' }],
    ['standardCommission', { standardCommission: { type: 'PERCENTAGE', value: -1 } }],
    ['standardCommission', { standardCommission: { type: 'BONUS', value: 1 } }],
    ['standardCommission', { standardCommission: { value: 1 } }],
    ['overriderCommission', { overriderCommission: { type: 'PERCENTAGE', value: 100.01 } }],
    ['otherCommission', { otherCommission: { type: 'FEE', value: 10.555 } }],
    ['otherCommission', { otherCommission: { type: 'FEE', value: 1e17 } }],
  ])('400 naming body.%s (case %#)', async (field, change) => {
    const res = await create(insurer.exec, productBody(change));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^body\\.${field}\\b`));
  });

  it('400 for a missing required field, an unknown one, and an insurer other than the company', async () => {
    for (const field of ['name', 'code', 'category'] as const) {
      const { [field]: _left, ...body } = productBody();
      expect((await create(insurer.exec, body)).json().message).toBe(`body.${field} is required`);
    }
    expect((await create(insurer.exec, productBody({ assignedTo: [] }))).json().message).toBe("body has an unknown property 'assignedTo'");
    expect((await create(insurer.exec, productBody({ insurerId: h.tenantId }))).json())
      .toMatchObject({ statusCode: 400, message: expect.stringMatching(/^body\.insurerId must be your own company's id/) });
  });

  it('lets a micro-insurer create, not a broker: brokers sell what insurers assign them', async () => {
    expect((await create(micro, productBody())).statusCode).toBe(201);
    const res = await create(broker.exec, productBody());
    expect(res.json()).toMatchObject({
      statusCode: 403, code: 'NOT_AN_INSURER',
      message: 'Coverline Sandbox Brokers is a BROKER: only an INSURER or a MICRO_INSURER creates products; brokers and agents sell the products insurers assign to them',
    });
  });

  it('refuses a client token, and officers and agents (403 NOT_PERMITTED)', async () => {
    expect((await create(insurerClient, productBody())).json()).toMatchObject({ statusCode: 403, code: 'WRONG_TOKEN_KIND' });
    expect((await staffList(brokerClient)).json()).toMatchObject({ statusCode: 403, code: 'WRONG_TOKEN_KIND' });
    for (const who of [insurer.officer, insurer.agent, broker.officer, broker.agent]) {
      const res = await create(who, productBody());
      expect(res.json()).toMatchObject({ statusCode: 403, code: 'NOT_PERMITTED', message: expect.stringMatching(/may not create a product$/) });
    }
    expect((await h.call({ method: 'GET', url: '/api/v1/staff/products', apiKey: h.otherApiKey })).statusCode).toBe(401);
  });
});

describe('updateStaffProduct: PATCH /staff/products/{id}', () => {
  it('changes the fields sent, removes a commission sent as null, and keeps every bound', async () => {
    const product = await created(insurer.exec, { standardCommission: { type: 'PERCENTAGE', value: 10 }, otherCommission: { type: 'FEE', value: 5 } });
    const path = `/staff/products/${product.id}`;
    const res = await call(insurer.head, 'PATCH', path, {
      name: 'Fleet Plus', distribution: 'ONLINE', benefits: ['More'], subCategory: null, standardCommission: { type: 'FEE', value: 99.99 }, otherCommission: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: product.id, name: 'Fleet Plus', code: product.code, distribution: 'ONLINE', benefits: ['More'], subCategory: null,
      standardCommission: { type: 'FEE', value: 99.99 }, otherCommission: null, createdBy: insurer.exec.id,
    });
    expect(res.json().data.updatedAt >= product.updatedAt).toBe(true);
    const bad = async (body: object) => (await call(insurer.exec, 'PATCH', path, body)).json();
    expect(await bad({})).toMatchObject({ statusCode: 400, message: 'body must NOT have fewer than 1 properties' });
    expect(await bad({ status: 'DEACTIVATED' })).toMatchObject({ statusCode: 400, message: "body has an unknown property 'status'" });
    expect(await bad({ insurerId: h.tenantId })).toMatchObject({ statusCode: 400, message: "body has an unknown property 'insurerId'" });
    expect((await bad({ name: 'A' })).message).toMatch(/^body\.name /);
    expect((await bad({ code: 'no spaces' })).message).toMatch(/^body\.code /);
    expect((await bad({ standardCommission: { type: 'PERCENTAGE', value: 101 } })).message)
      .toBe('body.standardCommission.value must be from 0 to 100 for a PERCENTAGE commission');
    expect((await bad({ otherCommission: { type: 'FEE', value: 0.001 } })).message).toBe('body.otherCommission.value must have at most two decimal places');
    await created(insurer.exec, { code: 'OTHER-CODE' });
    expect(await bad({ code: 'OTHER-CODE' })).toMatchObject({ statusCode: 409, code: 'PRODUCT_CODE_TAKEN' });
    expect((await call(insurer.exec, 'PATCH', path, { code: product.code })).statusCode).toBe(200); // its own code
  });

  it("answers 404 for another company's product or an unknown id, 403 to its distributor, and 403 to officers", async () => {
    const seeded = (await h.db.selectFrom('products').select('id').where('code', '=', 'HOME-ONLINE').executeTakeFirstOrThrow()).id;
    expect((await call(insurer.exec, 'PATCH', `/staff/products/${seeded}`, { name: 'Mine now' })).json())
      .toMatchObject({ statusCode: 404, code: 'NOT_FOUND', message: 'Product not found' });
    expect((await call(insurer.exec, 'PATCH', '/staff/products/00000000-0000-4000-8000-000000000000', { name: 'Nobody' })).statusCode).toBe(404);
    expect((await call(insurer.exec, 'GET', `/staff/products/${seeded}`)).statusCode).toBe(404);
    const product = await created(insurer.exec);
    expect((await call(insurer.exec, 'POST', `/staff/products/${product.id}/assignments`, { companyId: microTenantId })).statusCode).toBe(201);
    expect((await call(micro, 'GET', `/staff/products/${product.id}`)).json().data).toMatchObject({ id: product.id, assignedBy: insurer.exec.id });
    expect((await call(micro, 'PATCH', `/staff/products/${product.id}`, { name: 'Ours now' })).json()).toMatchObject({
      statusCode: 403, code: 'NOT_PRODUCT_OWNER',
      message: `Product ${product.code} is assigned to your company by Other Tenant Assurance; only its insurer changes it`,
    });
    expect((await call(micro, 'POST', `/staff/products/${product.id}/deactivate`)).json().code).toBe('NOT_PRODUCT_OWNER');
    expect((await call(broker.exec, 'PATCH', `/staff/products/${seeded}`, { name: 'Ours' })).json().code).toBe('NOT_AN_INSURER');
    expect((await call(insurer.officer, 'PATCH', `/staff/products/${product.id}`, { name: 'Mine' })).json().code).toBe('NOT_PERMITTED');
    expect((await call(insurer.agent, 'PATCH', `/staff/products/${product.id}`, { name: 'Mine' })).json().code).toBe('NOT_PERMITTED');
    expect((await call(insurer.exec, 'GET', '/staff/products/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('activate and deactivate', () => {
  it('takes an ONLINE product off sale for clients and policies, records who and when, and puts it back', async () => {
    const product = await created(insurer.exec, { distribution: 'ONLINE' });
    const clientGet = () => call(insurerClient, 'GET', `/client/products/${product.id}`);
    expect((await clientGet()).statusCode).toBe(200);
    expect((await call(insurerClient, 'GET', '/client/products?category=AUTO')).json().data.map((p: { id: string }) => p.id)).toContain(product.id);
    expect((await buy(insurerClient, product.id)).statusCode).toBe(201);

    h.clock.advance(60_000);
    const off = await call(insurer.head, 'POST', `/staff/products/${product.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'DEACTIVATED', statusChangedBy: insurer.head.id });
    const changedAt = off.json().data.statusChangedAt;
    expect(Date.parse(changedAt)).toBeGreaterThan(Date.parse(product.createdAt));
    expect((await clientGet()).statusCode).toBe(404);
    expect((await call(insurerClient, 'GET', '/client/products')).json().data.map((p: { id: string }) => p.id)).not.toContain(product.id);
    expect((await buy(insurerClient, product.id)).json()).toMatchObject({
      statusCode: 409, code: 'PRODUCT_DEACTIVATED', message: `body.productId: product ${product.code} is DEACTIVATED and no longer sold; choose another product`,
    });
    // Staff still see it, and the status filter finds it.
    expect((await call(insurer.officer, 'GET', `/staff/products/${product.id}`)).json().data.status).toBe('DEACTIVATED');
    expect(codesOf(await staffList(insurer.agent, '?status=DEACTIVATED'))).toContain(product.code);
    expect(codesOf(await staffList(insurer.agent, '?status=ACTIVE'))).not.toContain(product.code);
    // Again: unchanged, the record kept.
    const again = await call(insurer.exec, 'POST', `/staff/products/${product.id}/deactivate`);
    expect(again.json().data).toMatchObject({ status: 'DEACTIVATED', statusChangedBy: insurer.head.id, statusChangedAt: changedAt });

    const on = await call(insurer.exec, 'POST', `/staff/products/${product.id}/activate`);
    expect(on.json().data).toMatchObject({ status: 'ACTIVE', statusChangedBy: insurer.exec.id });
    expect((await clientGet()).statusCode).toBe(200);
    expect((await buy(insurerClient, product.id)).statusCode).toBe(201);
  });

  it('needs the owner and a keeper of the catalogue', async () => {
    const product = await created(insurer.exec);
    expect((await call(insurer.officer, 'POST', `/staff/products/${product.id}/deactivate`)).json().code).toBe('NOT_PERMITTED');
    expect((await call(insurer.agent, 'POST', `/staff/products/${product.id}/activate`)).json().code).toBe('NOT_PERMITTED');
    expect((await call(insurerClient, 'POST', `/staff/products/${product.id}/activate`)).json().code).toBe('WRONG_TOKEN_KIND');
    expect((await call(micro, 'POST', `/staff/products/${product.id}/activate`)).statusCode).toBe(404);
  });
});

describe('OFFLINE products: staff only', () => {
  it("are invisible to clients (list, get, the distribution filter) and refused for a client's policy", async () => {
    const product = await created(insurer.exec, { distribution: 'OFFLINE' });
    expect((await call(insurerClient, 'GET', `/client/products/${product.id}`)).statusCode).toBe(404);
    expect((await call(insurerClient, 'GET', '/client/products?distribution=OFFLINE')).json()).toMatchObject({ data: [], paginator: { itemsCount: 0 } });
    expect((await call(insurerClient, 'GET', '/client/products')).json().data.map((p: { id: string }) => p.id)).not.toContain(product.id);
    expect((await buy(insurerClient, product.id)).json())
      .toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });
    expect((await call(insurer.agent, 'GET', `/staff/products/${product.id}`)).json().data).toMatchObject({ distribution: 'OFFLINE' });
    const offline = await staffList(insurer.officer, '?distribution=OFFLINE&limit=100');
    expect(codesOf(offline)).toContain(product.code);
    expect(offline.json().data.every((p: { distribution: string }) => p.distribution === 'OFFLINE')).toBe(true);
    expect(codesOf(await staffList(insurer.officer, '?distribution=ONLINE&limit=100'))).not.toContain(product.code);
  });
});

describe('assignments', () => {
  it('assign to a broker: its staff see it with assignedTo/assignedBy/assignedAt, its clients too while ONLINE; unassign removes it', async () => {
    const online = await created(insurer.exec, { distribution: 'ONLINE', name: 'Zz Assigned Online' });
    const offline = await created(insurer.exec, { distribution: 'OFFLINE', name: 'Zz Assigned Offline' });
    h.clock.advance(60_000);
    const res = await call(insurer.exec, 'POST', `/staff/products/${online.id}/assignments`, { companyId: h.tenantId });
    expect(res.statusCode).toBe(201);
    const assignment = res.json().data.assignedTo[0];
    expect(res.json().data.assignedTo).toEqual([
      { companyId: h.tenantId, name: 'Coverline Sandbox Brokers', type: 'BROKER', assignedBy: insurer.exec.id, assignedAt: expect.any(String) },
    ]);
    expect(res.json().data.assignedAt).toBeNull(); // the insurer's own product
    expect((await call(insurer.head, 'POST', `/staff/products/${offline.id}/assignments`, { companyId: h.tenantId })).statusCode).toBe(201);

    // The broker's staff see both, as assigned products.
    const seen = await call(broker.agent, 'GET', `/staff/products/${online.id}`);
    expect(seen.json().data).toMatchObject({
      id: online.id, insurerId: h.otherTenantId, assignedBy: insurer.exec.id, assignedAt: assignment.assignedAt, assignedTo: [assignment],
    });
    const assigned = await staffList(broker.officer, '?assigned=true&name=Zz%20Assigned');
    expect(codesOf(assigned).sort()).toEqual([online.code, offline.code].sort());
    expect(codesOf(await staffList(broker.officer, '?assigned=false&limit=100'))).not.toContain(online.code);
    expect(codesOf(await staffList(broker.officer, '?distribution=OFFLINE&name=Zz'))).toEqual([offline.code]);
    expect(codesOf(await staffList(broker.officer, `?insurerId=${h.otherTenantId}&limit=100`)).sort()).toEqual([online.code, offline.code].sort());

    // The broker's clients see the ONLINE one only.
    expect((await call(brokerClient, 'GET', `/client/products/${online.id}`)).json().data).toMatchObject({ id: online.id, assignedAt: assignment.assignedAt, assignedTo: [assignment] });
    expect((await call(brokerClient, 'GET', `/client/products/${offline.id}`)).statusCode).toBe(404);
    expect(codesOf(await call(brokerClient, 'GET', '/client/products?assigned=true&name=Zz'))).toEqual([online.code]);
    expect(codesOf(await call(brokerClient, 'GET', '/client/products?assigned=false&name=Zz'))).toEqual([]);
    expect(codesOf(await call(brokerClient, 'GET', '/client/products?distribution=OFFLINE&name=Zz'))).toEqual([]);
    expect(codesOf(await call(brokerClient, 'GET', '/client/products?distribution=ONLINE&name=Zz'))).toEqual([online.code]);
    expect((await buy(brokerClient, offline.id)).json()).toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });

    // The insurer's own lists: its products are its own, none assigned to it.
    expect(codesOf(await staffList(insurer.exec, '?assigned=false&name=Zz')).sort()).toEqual([online.code, offline.code].sort());
    expect((await staffList(insurer.exec, '?assigned=true')).json().paginator.itemsCount).toBe(0);

    // Conflicts and unknowns.
    const assign = (companyId: string, id = online.id) => call(insurer.exec, 'POST', `/staff/products/${id}/assignments`, { companyId });
    expect((await assign(h.tenantId)).json()).toMatchObject({
      statusCode: 409, code: 'ALREADY_ASSIGNED', message: `body.companyId: product ${online.code} is already assigned to Coverline Sandbox Brokers`,
    });
    expect((await assign(h.otherTenantId)).json()).toMatchObject({ statusCode: 409, code: 'SELF_ASSIGNMENT' });
    expect((await assign('00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ statusCode: 404, message: 'Company not found' });
    expect((await assign(h.tenantId, '00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ statusCode: 404, message: 'Product not found' });
    expect((await call(insurer.exec, 'POST', `/staff/products/${online.id}/assignments`, { companyId: 'broker' })).json().message)
      .toBe('body.companyId must match format "uuid"');
    expect((await call(broker.exec, 'POST', `/staff/products/${online.id}/assignments`, { companyId: microTenantId })).json().code).toBe('NOT_AN_INSURER');
    expect((await call(insurer.officer, 'POST', `/staff/products/${online.id}/assignments`, { companyId: microTenantId })).json().code).toBe('NOT_PERMITTED');
    expect((await call(insurer.agent, 'DELETE', `/staff/products/${online.id}/assignments/${h.tenantId}`)).json().code).toBe('NOT_PERMITTED');

    // Unassign: gone for the broker's staff and clients.
    const removed = await call(insurer.head, 'DELETE', `/staff/products/${online.id}/assignments/${h.tenantId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.assignedTo).toEqual([]);
    expect((await call(broker.agent, 'GET', `/staff/products/${online.id}`)).statusCode).toBe(404);
    expect((await call(brokerClient, 'GET', `/client/products/${online.id}`)).statusCode).toBe(404);
    expect(codesOf(await staffList(broker.officer, '?assigned=true&name=Zz'))).toEqual([offline.code]);
    expect((await buy(brokerClient, online.id)).json()).toMatchObject({ statusCode: 400 });
    expect((await call(insurer.head, 'DELETE', `/staff/products/${online.id}/assignments/${h.tenantId}`)).json())
      .toMatchObject({ statusCode: 404, message: 'Assignment not found' });
  });

  it("lets the broker's clients buy an assigned ONLINE product", async () => {
    const product = await created(insurer.exec, { distribution: 'ONLINE' });
    expect((await buy(brokerClient, product.id)).statusCode).toBe(400);
    await call(insurer.exec, 'POST', `/staff/products/${product.id}/assignments`, { companyId: h.tenantId });
    const res = await buy(brokerClient, product.id);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.product).toMatchObject({ id: product.id });
  });
});

describe('listStaffProducts: GET /staff/products', () => {
  it("lists the broker's products for every staff member, ONLINE and OFFLINE, with filters and pages", async () => {
    for (const who of [broker.exec, broker.officer, broker.agent]) {
      const res = await staffList(who, '?limit=100');
      expect(res.statusCode).toBe(200);
      expect(res.json().paginator.itemsCount).toBeGreaterThanOrEqual(43);
    }
    const offline = await staffList(broker.agent, '?distribution=OFFLINE&assigned=true&insurerId=' + (await h.db.selectFrom('companies').select('id').where('subdomain', '=', 'goldcoast').executeTakeFirstOrThrow()).id);
    expect(offline.json().data.length).toBeGreaterThan(0);
    expect(offline.json().data.every((p: { distribution: string }) => p.distribution === 'OFFLINE')).toBe(true);
    expect(codesOf(await staffList(broker.agent, '?category=AUTO&subCategory=FLEET'))).toContain('AUTO-FLEET-OFFLINE');
    expect((await staffList(broker.agent, '?limit=10&page=2')).json().paginator).toMatchObject({ page: 2, limit: 10 });
    expect((await staffList(broker.agent, '?distribution=BOTH')).json().message).toMatch(/^query\.distribution must be one of/);
    expect((await staffList(broker.agent, '?status=PAUSED')).json().message).toMatch(/^query\.status must be one of/);
    expect((await staffList(broker.agent, '?insurerId=goldcoast')).json().message).toBe('query.insurerId must match format "uuid"');
  });
});
