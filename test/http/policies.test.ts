import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, plusDays, signUp } from '../helpers/clients.js';

let h: Harness;
let token: string;
let clientId: string;
let otherToken: string;
const products = new Map<string, string>();
const today = new Date().toISOString().slice(0, 10);
const year = new Date().getUTCFullYear();
const start = plusDays(10);
const end = new Date(Date.parse(start) + 364 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  h = await createHarness();
  const signed = await signUp(h);
  token = signed.token;
  clientId = signed.account.id;
  otherToken = (await signUp(h, individualBody())).token;
  const rows = await h.db.selectFrom('products').select(['id', 'category']).where('distribution', '=', 'ONLINE').execute();
  for (const row of rows) products.set(row.category, row.id);
});
afterAll(async () => { await h.close(); });

const car = (extra: Record<string, unknown> = {}) => ({
  coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Corolla', registrationNo: 'GR 1234-24',
  chassisNumber: 'JTDBR32E720123456', cubicCapacity: 1800, seats: 5, bodyType: 'SALOON', usage: 'PRIVATE', sumInsured: 85000,
  noClaimDiscountYears: 2, policyExcess: 10, yearOfMake: year - 7, ...extra,
});
const autoBody = (extra: Record<string, unknown> = {}, asset: Record<string, unknown> = {}) => ({
  policyType: 'AUTO', currency: 'GHS', startDate: start, endDate: end, productId: products.get('AUTO'), businessType: 'NEW_BUSINESS',
  assets: [car(asset)], ...extra,
});
const create = (body: object, as = token, url = '/api/v1/client/policies') => h.call({ method: 'POST', url, token: as, payload: body });
const get = (id: string, as = token) => h.call({ method: 'GET', url: `/api/v1/client/policies/${id}`, token: as });

describe('createPolicy: POST /client/policies', () => {
  it('prices, numbers and invoices a motor policy for the signed-in client', async () => {
    const res = await create(autoBody());
    expect(res.statusCode).toBe(201);
    const policy = res.json().data;
    expect(policy).toMatchObject({
      policyNo: expect.stringMatching(/^POL-\d{4,}$/), policyType: 'AUTO', state: 'PROCESSING', businessCategory: 'LOCAL', exchangeRate: 1,
      client: { id: clientId }, product: { id: products.get('AUTO'), category: 'AUTO' }, createdBy: null, originatingStaff: null,
      generateInvoice: true, isPaid: false, sumInsured: 85000,
    });
    // 450 third party + 4250 own damage (5%) + 5% engine size + 5% age, less 30% no-claim discount on the own-damage part.
    expect(policy.premium).toBe(3722.5);
    expect(policy.premiumBreakdown.lines.map((l: { code: string }) => l.code)).toEqual(
      ['THIRD_PARTY_BASIC', 'OWN_DAMAGE', 'CUBIC_CAPACITY_LOADING', 'AGE_LOADING', 'NO_CLAIM_DISCOUNT']);
    expect(policy.invoice).toMatchObject({ invoiceNo: expect.stringMatching(/^INV-\d{4,}$/), amount: 3722.5, convertedAmount: 3722.5, currency: 'GHS', invoiceDate: today });
    expect(policy.assets).toHaveLength(1);
    expect(policy.assets[0]).toMatchObject({ id: expect.any(String), premium: 3722.5, applyExcess: true, thirdPartyPropertyDamage: 5000, startDate: start, endDate: end });
    const history = await h.db.selectFrom('policy_state_changes').selectAll().where('policy_id', '=', policy.id).execute();
    expect(history).toMatchObject([{ from_state: null, to_state: 'PROCESSING', actor_kind: 'client', actor_id: clientId }]);
    const note = await h.db.selectFrom('notifications').select(['title']).where('client_id', '=', clientId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(note.title).toBe(`Policy ${policy.policyNo} created`);
  });

  it('numbers policies one after another per tenant', async () => {
    const a = (await create(autoBody({ generateInvoice: false }))).json().data;
    const b = (await create(autoBody({ generateInvoice: false }))).json().data;
    expect(Number(b.policyNo.slice(4))).toBe(Number(a.policyNo.slice(4)) + 1);
    expect(a).toMatchObject({ state: 'DRAFT', invoice: null });
  });

  it('takes the price it showed and refuses any other (422)', async () => {
    expect((await create(autoBody({ premium: 3722.5 }))).statusCode).toBe(201);
    const res = await create(autoBody({ premium: 100 }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PREMIUM_MISMATCH', message: 'body.premium must be 3722.50 GHS, the price of this cover (leave premium out to accept it)' });
    expect((await create(autoBody({}, { premium: 1 }))).json().message).toMatch(/^body\.assets\[0\]\.premium must be 3722\.50 GHS/);
  });

  it('enforces each motor rule with a 400 naming the field', async () => {
    const message = async (extra: Record<string, unknown>, asset: Record<string, unknown>, drop?: string) => {
      const body = autoBody(extra, asset) as { assets: Record<string, unknown>[] };
      if (drop) delete body.assets[0][drop];
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    expect(await message({}, {}, 'chassisNumber')).toBe('body.assets[0].chassisNumber is required');
    expect(await message({}, {}, 'noClaimDiscountYears')).toBe('body.assets[0].noClaimDiscountYears is required');
    expect(await message({}, { coverage: 'THIRD_PARTY_FIRE_AND_THEFT' }, 'policyExcess')).toBe('body.assets[0].policyExcess is required');
    expect(await message({}, {}, 'sumInsured')).toBe('body.assets[0].sumInsured is required');
    expect(await message({}, { usage: 'COMMERCIAL', noClaimDiscountRate: 30 })).toBe('body.assets[0].noClaimDiscountRate must be one of: 0, 15, 20, 25');
    expect(await message({}, { usage: 'MOTOR_CYCLE', noClaimDiscountRate: 25 })).toBe('body.assets[0].noClaimDiscountRate must be one of: 0, 10');
    expect(await message({}, { noClaimDiscountRate: 45 })).toBe('body.assets[0].noClaimDiscountRate must not exceed 30, what 2 claim-free year(s) earn for PRIVATE usage');
    expect(await message({}, { yearOfMake: year + 1 })).toBe(`body.assets[0].yearOfMake must not be later than ${year}`);
    expect(await message({}, { yearOfRegistration: year - 9 })).toBe('body.assets[0].yearOfRegistration must not be before body.assets[0].yearOfMake');
    expect(await message({}, { seats: 0 })).toBe('body.assets[0].seats must be >= 1');
    expect(await message({}, { coverage: 'FLYING' })).toMatch(/^body\.assets\[0\]\.coverage must be one of: COMPREHENSIVE/);
    expect(await message({ startDate: plusDays(-1) }, {})).toBe(`body.startDate must not be in the past (today is ${today})`);
    expect(await message({ endDate: plusDays(5) }, {})).toBe('body.endDate must be on or after body.startDate');
    expect((await create(autoBody({ oldPolicyId: '3f6c2a1e-8b4d-4c7e-9a2f-1b3c5d7e9f01', businessType: 'RENEWAL' }))).statusCode).toBe(404);
    expect(await message({ productId: products.get('HOME') }, {})).toBe('body.productId: the product is for HOME cover, not AUTO');
    expect(await message({ currency: 'XYZ' }, {})).toBe('body.currency: XYZ is not an ACTIVE currency (see GET /currencies)');
    expect(await message({ policyNo: 'POL-9999' }, {})).toBe('body.policyNo is assigned by the server; leave it out');
  });

  it('lets third-party-only cover leave out the value, and prices it on the basic premium', async () => {
    const res = await create(autoBody({}, { coverage: 'THIRD_PARTY_ONLY', sumInsured: undefined, chassisNumber: undefined, noClaimDiscountYears: undefined, policyExcess: undefined }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.premium).toBe(450);
  });

  it('serves the typed per-kind calls with the same engine', async () => {
    const { policyType: _type, ...rest } = autoBody();
    const res = await create({ ...rest, policyType: 'AUTO' }, token, '/api/v1/client/policies/auto');
    expect(res.statusCode).toBe(201);
    const home = await create({ ...rest, policyType: 'HOME', productId: products.get('HOME'), assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'East Legon' }] },
      token, '/api/v1/client/policies/home');
    expect(home.statusCode).toBe(201);
    expect(home.json().data.premium.toFixed(2)).toBe('1125.00'); // 450 000 sum insured x 0.25% (the HOME product's rate), a full year
    const wrong = await create({ ...rest, policyType: 'HOME' }, token, '/api/v1/client/policies/auto');
    expect(wrong.statusCode).toBe(400);
  });
  it('moves kept assets\' dates with the policy\'s when they were the policy\'s, and keeps (and checks) dates of their own', async () => {
    const later = plusDays(40);
    const laterEnd = new Date(Date.parse(later) + 364 * 86_400_000).toISOString().slice(0, 10);
    const followed = (await create(autoBody({ generateInvoice: false }))).json().data;
    const res = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${followed.id}`, token, payload: { startDate: later, endDate: laterEnd } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ startDate: later, endDate: laterEnd });
    expect(res.json().data.assets[0]).toMatchObject({ startDate: later, endDate: laterEnd });
    // An asset covered for part of the term keeps its own dates, and they must fit the new term.
    const partEnd = plusDays(100);
    const own = (await create(autoBody({ generateInvoice: false }, { startDate: start, endDate: partEnd }))).json().data;
    const moved = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${own.id}`, token, payload: { endDate: plusDays(200) } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.assets[0]).toMatchObject({ startDate: start, endDate: partEnd });
    const cut = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${own.id}`, token, payload: { endDate: plusDays(50) } });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toMatch(/^body\.assets\[0\]\.endDate must be on or after its startDate and not after the policy's endDate/);
  });
});

describe('getPolicy, updatePolicy, deletePolicy: GET, PATCH, DELETE /client/policies/{id}', () => {
  it('answers another client\'s policy named as oldPolicyId with 404, and another tenant sees none of it', async () => {
    const mine = (await create(autoBody())).json().data;
    const renewal = { businessType: 'RENEWAL', oldPolicyId: mine.id };
    expect((await create(autoBody(renewal), otherToken)).json()).toMatchObject({ statusCode: 404, message: 'Policy not found' });
    const foreign = (await signUp(h, individualBody(), h.otherApiKey)).token;
    const res = await h.call({ method: 'POST', url: '/api/v1/client/policies/auto', token: foreign, apiKey: h.otherApiKey, payload: autoBody(renewal) });
    // Tenant 2 sees neither this tenant's product nor its policies.
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });
    expect((await h.db.selectFrom('policies').select('id').where('old_policy_id', '=', mine.id).execute())).toEqual([]);
  });

  it('answers another client\'s policy with 404 on every call', async () => {
    const mine = (await create(autoBody())).json().data;
    expect((await get(mine.id)).statusCode).toBe(200);
    expect((await get(mine.id, otherToken)).statusCode).toBe(404);
    expect((await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${mine.id}`, token: otherToken, payload: { notes: 'x' } })).statusCode).toBe(404);
    expect((await h.call({ method: 'DELETE', url: `/api/v1/client/policies/${mine.id}`, token: otherToken })).statusCode).toBe(404);
    expect((await h.call({ method: 'POST', url: `/api/v1/client/policies/${mine.id}/renew`, token: otherToken, payload: {} })).statusCode).toBe(404);
    expect((await get(mine.id)).statusCode).toBe(200);
  });

  it('reprices an unpaid policy when its cover changes, and its invoice follows', async () => {
    const policy = (await create(autoBody())).json().data;
    const res = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${policy.id}`, token, payload: { assets: [car({ sumInsured: 100000 })], notes: 'New value' } });
    expect(res.statusCode).toBe(200);
    const updated = res.json().data;
    // 100 000 comprehensive: 450.00 basic + own damage 5% = 5 000.00 + engine 5% = 250.00 + age 5% = 250.00
    // - no-claim discount 30% of 5 500.00 = 1 650.00: 4 300.00 (it was 3 722.50 on 85 000)
    expect({ was: policy.premium.toFixed(2), now: updated.premium.toFixed(2) }).toEqual({ was: '3722.50', now: '4300.00' });
    expect(updated.invoice.amount).toBe(updated.premium);
    expect(updated.notes).toBe('New value');
    const bad = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${policy.id}`, token, payload: { assets: [{ make: 'Toyota' }] } });
    expect(bad.json().message).toBe('body.assets[0].coverage is required');
  });

  it('refuses an asset premium that is not the server\'s price with 422 PREMIUM_MISMATCH, naming the price, and changes nothing', async () => {
    const policy = (await create(autoBody())).json().data;
    const res = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${policy.id}`, token, payload: { assets: [car({ sumInsured: 100000, premium: 1 })] } });
    expect({ status: res.statusCode, code: res.json().code, message: res.json().message }).toEqual({
      status: 422, code: 'PREMIUM_MISMATCH', message: 'body.assets[0].premium must be 4300.00 GHS, the price of this cover (leave premium out to accept it)',
    });
    expect((await get(policy.id)).json().data.premium).toBe(policy.premium);
  });

  it('takes a fleet discount on a kind that has one (AUTO) and refuses it on any other (409 NOT_APPLICABLE)', async () => {
    const motor = (await create(autoBody())).json().data;
    const discounted = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${motor.id}`, token, payload: { fleetDiscountRate: 10 } });
    expect(discounted.statusCode).toBe(200);
    expect(discounted.json().data.premium.toFixed(2)).toBe('3350.25'); // 3 722.50 less 10% = 372.25
    const { policyType: _type, ...rest } = autoBody();
    const home = (await create({ ...rest, policyType: 'HOME', productId: products.get('HOME'), assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'East Legon' }] })).json().data;
    const refused = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${home.id}`, token, payload: { fleetDiscountRate: 10 } });
    expect({ status: refused.statusCode, code: refused.json().code, message: refused.json().message }).toEqual({
      status: 409, code: 'NOT_APPLICABLE', message: `body.fleetDiscountRate applies to AUTO policies only; policy ${home.policyNo} is HOME`,
    });
  });

  it('raises a draft\'s invoice on request', async () => {
    const draft = (await create(autoBody({ generateInvoice: false }))).json().data;
    const res = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${draft.id}`, token, payload: { generateInvoice: true } });
    expect(res.json().data).toMatchObject({ state: 'PROCESSING', invoice: { amount: draft.premium } });
  });

  it('deletes an unpaid policy, and refuses (409) once a payment exists', async () => {
    const unpaid = (await create(autoBody())).json().data;
    expect((await h.call({ method: 'DELETE', url: `/api/v1/client/policies/${unpaid.id}`, token })).json()).toMatchObject({ message: `Policy ${unpaid.policyNo} deleted` });
    expect((await get(unpaid.id)).statusCode).toBe(404);

    const paid = (await create(autoBody())).json().data;
    const tenant = (await h.db.selectFrom('policies').select('tenant_id').where('id', '=', paid.id).executeTakeFirstOrThrow()).tenant_id;
    await h.db.insertInto('transactions').values({
      tenant_id: tenant, transaction_no: `TRX-T${Date.now()}`, invoice_id: paid.invoice.id, policy_id: paid.id, client_id: clientId,
      payment_method: 'CASH', status: 'PENDING_APPROVAL', amount: 100, currency: 'GHS', exchange_rate: 1, converted_amount: 100,
    }).execute();
    const refused = await h.call({ method: 'DELETE', url: `/api/v1/client/policies/${paid.id}`, token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/contact customer support/);
    expect((await get(paid.id)).json().data.isPaid).toBe(true);
    const locked = await h.call({ method: 'PATCH', url: `/api/v1/client/policies/${paid.id}`, token, payload: { endDate: end } });
    expect(locked.statusCode).toBe(409);
  });
});

describe('renewals', () => {
  it('renews an active policy once, rolling the dates forward', async () => {
    const policy = (await create(autoBody())).json().data;
    const pending = await h.call({ method: 'POST', url: `/api/v1/client/policies/${policy.id}/renew`, token, payload: {} });
    expect(pending.statusCode).toBe(409);
    await h.db.updateTable('policies').set({ state: 'ACTIVE' }).where('id', '=', policy.id).execute();
    const res = await h.call({ method: 'POST', url: `/api/v1/client/policies/${policy.id}/renew`, token, payload: {} });
    expect(res.statusCode).toBe(201);
    const renewal = res.json().data;
    const nextStart = new Date(Date.parse(end) + 86_400_000).toISOString().slice(0, 10);
    expect(renewal).toMatchObject({ businessType: 'RENEWAL', oldPolicyId: policy.id, startDate: nextStart, state: 'PROCESSING' });
    expect(renewal.assets[0]).toMatchObject({ registrationNo: 'GR 1234-24', startDate: nextStart });
    const again = await h.call({ method: 'POST', url: `/api/v1/client/policies/${policy.id}/renew`, token, payload: {} });
    expect(again.json()).toMatchObject({ statusCode: 409, code: 'ALREADY_RENEWED' });
    const viaCreate = await create(autoBody({ businessType: 'RENEWAL', oldPolicyId: policy.id }));
    expect(viaCreate.statusCode).toBe(409);
  });
});

describe('listPolicies: GET /client/policies', () => {
  it('filters, pages and includes assets on request', async () => {
    const all = (await h.call({ method: 'GET', url: '/api/v1/client/policies', token })).json();
    expect(all.paginator.itemsCount).toBeGreaterThan(3);
    expect(all.data[0].assets).toBeUndefined();
    const first = all.data[all.data.length - 1];
    const byNo = (await h.call({ method: 'GET', url: `/api/v1/client/policies?policyNo=${first.policyNo}&assets=true`, token })).json();
    expect(byNo.data.map((p: { id: string }) => p.id)).toEqual([first.id]);
    expect(byNo.data[0].assets).toHaveLength(1);
    const drafts = (await h.call({ method: 'GET', url: '/api/v1/client/policies?state=DRAFT', token })).json();
    expect(drafts.data.every((p: { state: string }) => p.state === 'DRAFT')).toBe(true);
    const d = start.split('-').reverse().join('-');
    const ranged = (await h.call({ method: 'GET', url: `/api/v1/client/policies?startDate[]=${d}&startDate[]=${d}&limit=2`, token })).json();
    expect(ranged.paginator).toMatchObject({ limit: 2, hasNextPage: true });
    expect((await h.call({ method: 'GET', url: '/api/v1/client/policies?startDate[]=31-02-2026', token })).json().message).toBe('query.startDate[0] is not a real date: 31-02-2026');
    expect((await h.call({ method: 'GET', url: '/api/v1/client/policies?insurerName=nobody', token })).json().data).toEqual([]);
    // Name filters read the policy's product, insurer and client: the rows and their count alike.
    const part = (name: string, from: number) => encodeURIComponent(name.slice(from, from + 4));
    const ends = first.endDate.split('-').reverse().join('-');
    for (const filter of [`productName=${part(first.product.name, 1).toLowerCase()}`, `insurerName=${part(first.product.insurer.name, 0).toUpperCase()}`,
      `clientName=${part(first.client.fullName, 0)}`, `endDate[]=${ends}&endDate[]=${ends}&policyNo=${first.policyNo.slice(-3)}`]) {
      const named = (await h.call({ method: 'GET', url: `/api/v1/client/policies?${filter}&usePagination=false`, token })).json();
      expect(named.data.map((p: { id: string }) => p.id)).toContain(first.id);
      expect(named.paginator.itemsCount).toBe(named.data.length);
      // A page of the same filters (its queries built once per set of filters) holds the same policies.
      for (let round = 0; round < 2; round += 1) {
        const paged = (await h.call({ method: 'GET', url: `/api/v1/client/policies?${filter}&limit=100`, token })).json();
        expect(paged.data.map((p: { id: string }) => p.id)).toEqual(named.data.map((p: { id: string }) => p.id));
        expect(paged.paginator.itemsCount).toBe(named.data.length);
      }
    }
    expect((await h.call({ method: 'GET', url: '/api/v1/client/policies', token: otherToken })).json().paginator.itemsCount).toBe(0);
  });

  it('exports to Excel, which needs usePagination and assets', async () => {
    expect((await h.call({ method: 'GET', url: '/api/v1/client/policies?format=excel&assets=true', token })).json().message).toBe('query.usePagination is required with format=excel');
    const res = await h.call({ method: 'GET', url: '/api/v1/client/policies?format=excel&usePagination=false&assets=true', token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Policies')!;
    const count = (await h.call({ method: 'GET', url: '/api/v1/client/policies', token })).json().paginator.itemsCount;
    expect(sheet.rowCount).toBe(count + 1);
    expect(sheet.getRow(1).getCell(1).value).toBe('Policy No');
  });

  it('exports every policy once, newest first, across its batches of 1000 (ties and microseconds included)', async () => {
    const bulk = await signUp(h);
    // 2500 policies: 1200 created in the same instant (the id orders them), then one microsecond apart,
    // which a JavaScript Date cannot tell apart.
    await sql`insert into policies (tenant_id, policy_no, client_id, product_id, policy_type, state, business_type, business_category,
        currency, exchange_rate, premium, premium_breakdown, start_date, end_date, generate_invoice, created_at, updated_at)
      select ${h.tenantId}::uuid, 'BULK-' || g, ${bulk.account.id}::uuid, ${products.get('AUTO')}::uuid, 'AUTO', 'DRAFT', 'NEW_BUSINESS', 'LOCAL',
        'GHS', 1, 100, '{}', ${start}::date, ${end}::date, false, at, at
      from generate_series(1, 2500) g,
        lateral (select '2026-01-01 00:00:00.123456+00'::timestamptz - make_interval(secs => greatest(g - 1200, 0) / 1e6) as at) t`.execute(h.db);
    const order = (await h.db.selectFrom('policies').select('policy_no').where('client_id', '=', bulk.account.id)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map((row) => row.policy_no);
    const exported = async (query: string) => {
      const res = await h.call({ method: 'GET', url: `/api/v1/client/policies?format=excel&assets=false&${query}`, token: bulk.token });
      expect(res.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const values = workbook.getWorksheet('Policies')!.getColumn(1).values.slice(2);
      return values.map(String);
    };
    expect(await exported('usePagination=false')).toEqual(order);
    expect(await exported('usePagination=true&limit=500&page=3')).toEqual(order.slice(1000, 1500));
  });
});

describe('listPolicyTypes: GET /client/policies/types', () => {
  it('lists every type with its create call and what is on sale', async () => {
    const data = (await h.call({ method: 'GET', url: '/api/v1/client/policies/types', token })).json().data;
    expect(data).toHaveLength(39);
    expect(data[0]).toEqual({ policyType: 'AUTO', name: 'Auto', assetSchema: 'MotorAsset', createPath: '/client/policies/auto', productCount: 1 });
  });
});
