import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const BASE = '/api/v1/client/delivery-addresses';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function addressBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Kofi Mensah',
    region: 'Greater Accra',
    city: 'Accra',
    phoneNumber: '+233244123456',
    address: 'House No. 14, Nii Ashie Street, East Legon (GA-183-8164)',
    ...overrides,
  };
}

const create = (token: string | undefined, payload: unknown, apiKey?: string) =>
  h.call({ method: 'POST', url: BASE, token, payload: payload as object, apiKey });
const list = (token: string | undefined, query = '', apiKey?: string) =>
  h.call({ method: 'GET', url: `${BASE}${query}`, token, apiKey });
const get = (token: string | undefined, id: string, apiKey?: string) =>
  h.call({ method: 'GET', url: `${BASE}/${id}`, token, apiKey });
const patch = (token: string | undefined, id: string, payload: unknown, apiKey?: string) =>
  h.call({ method: 'PATCH', url: `${BASE}/${id}`, token, payload: payload as object, apiKey });
const remove = (token: string | undefined, id: string, apiKey?: string) =>
  h.call({ method: 'DELETE', url: `${BASE}/${id}`, token, apiKey });

/** Creates an address and answers it; fails the test unless the API answered 201. */
async function added(token: string, overrides: Record<string, unknown> = {}, apiKey?: string) {
  const res = await create(token, addressBody(overrides), apiKey);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The client's rows straight from the database (tenant-independent, so isolation can be checked). */
const rowsOf = (clientId: string) =>
  h.db.selectFrom('delivery_addresses').selectAll().where('client_id', '=', clientId).orderBy('created_at').execute();
const rowById = (id: string) => h.db.selectFrom('delivery_addresses').selectAll().where('id', '=', id).executeTakeFirst();
const primaries = async (clientId: string) => (await rowsOf(clientId)).filter((row) => row.type === 'PRIMARY');

describe('createDeliveryAddress: POST /client/delivery-addresses', () => {
  it('adds a PRIMARY address by default, for the signed-in client of the calling tenant', async () => {
    const { token, account } = await signUp(h);
    const res = await create(token, addressBody());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect({ statusCode: body.statusCode, success: body.success }).toEqual({ statusCode: 201, success: true });
    expect(body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'PRIMARY',
      ...addressBody(),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(body.data.createdAt).toISOString()).toBe(body.data.createdAt);
    const row = await rowById(body.data.id);
    expect(row).toMatchObject({ tenant_id: h.tenantId, client_id: account.id, type: 'PRIMARY', phone_number: '+233244123456' });
  });

  it('keeps the PRIMARY address when a SECONDARY one is added, and demotes it when a new PRIMARY is added', async () => {
    const { token, account } = await signUp(h);
    const home = await added(token);
    const office = await added(token, { type: 'SECONDARY', city: 'Kumasi', region: 'Ashanti' });
    expect(office.type).toBe('SECONDARY');
    expect((await rowById(home.id))!.type).toBe('PRIMARY');

    const shop = await added(token, { type: 'PRIMARY', city: 'Takoradi', region: 'Western' });
    expect(shop.type).toBe('PRIMARY');
    expect((await rowById(home.id))!.type).toBe('SECONDARY');
    expect((await rowById(office.id))!.type).toBe('SECONDARY');
    expect((await primaries(account.id)).map((row) => row.id)).toEqual([shop.id]);
  });

  it.each(['name', 'region', 'city', 'phoneNumber', 'address'])('requires %s', async (field) => {
    const { token, account } = await signUp(h);
    const payload: Record<string, unknown> = addressBody();
    delete payload[field];
    const res = await create(token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: `body.${field} is required`, error: 'Bad Request', code: 'VALIDATION_ERROR',
      errors: [{ field: `body.${field}`, message: 'is required', code: 'required' }] });
    expect(await rowsOf(account.id)).toHaveLength(0);
  });

  it('takes phone numbers of 10 to 15 characters only', async () => {
    const { token } = await signUp(h);
    const short = await create(token, addressBody({ phoneNumber: '024412345' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('body.phoneNumber must NOT have fewer than 10 characters');
    const long = await create(token, addressBody({ phoneNumber: '+23324412345678' + '9' }));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('body.phoneNumber must NOT have more than 15 characters');
    const letters = await create(token, addressBody({ phoneNumber: '02441234ab' }));
    expect(letters.statusCode).toBe(400);
    expect(letters.json().message).toMatch(/^body\.phoneNumber must match pattern/);
    expect((await create(token, addressBody({ phoneNumber: '0244123456' }))).statusCode).toBe(201);
    expect((await create(token, addressBody({ phoneNumber: '+23324412345678' }))).statusCode).toBe(201);
  });

  it('refuses unknown properties, a type outside the enum, empty and overlong strings, and non-string values', async () => {
    const { token, account } = await signUp(h);
    const cases: [unknown, string][] = [
      [addressBody({ landmark: 'Opposite the Shell filling station' }), "body has an unknown property 'landmark'"],
      [addressBody({ type: 'BILLING' }), 'body.type must be one of: PRIMARY, SECONDARY'],
      [addressBody({ type: 'primary' }), 'body.type must be one of: PRIMARY, SECONDARY'],
      [addressBody({ name: '' }), 'body.name must NOT have fewer than 1 characters'],
      [addressBody({ city: 'A'.repeat(101) }), 'body.city must NOT have more than 100 characters'],
      [addressBody({ address: 'x'.repeat(501) }), 'body.address must NOT have more than 500 characters'],
      [addressBody({ phoneNumber: 233244123456 }), 'body.phoneNumber must be string'],
      [[addressBody()], 'body must be object'],
    ];
    for (const [payload, message] of cases) {
      const res = await create(token, payload);
      expect({ payload, status: res.statusCode, body: res.json() })
        .toEqual({ payload, status: 400, body: { statusCode: 400, requestId: expect.any(String), message, error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) } });
    }
    expect(await rowsOf(account.id)).toHaveLength(0);
  });

  it('answers 413 for a body over the limit and 415 for a body that is not JSON', async () => {
    const { token } = await signUp(h);
    const big = await create(token, addressBody({ address: 'x'.repeat(h.config.bodyLimitBytes + 10) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' });
    const text = await h.call({ method: 'POST', url: BASE, token, payload: 'Accra', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('leaves exactly one PRIMARY when a client with no address adds five PRIMARY ones at once', async () => {
    const { token, account } = await signUp(h);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => create(token, addressBody({ name: `Address ${n}` }))));
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(await rowsOf(account.id)).toHaveLength(5);
    expect(await primaries(account.id)).toHaveLength(1);
  });
});

describe('listDeliveryAddresses: GET /client/delivery-addresses', () => {
  it('puts the PRIMARY address first, then the others newest first, and pages them', async () => {
    const { token } = await signUp(h);
    const made: Record<string, any> = {};
    for (const [name, type] of [['A', 'SECONDARY'], ['B', 'PRIMARY'], ['C', 'SECONDARY'], ['D', 'SECONDARY'], ['E', 'SECONDARY']]) {
      made[name] = await added(token, { name, type });
      h.clock.advance(1000);
    }
    const all = await list(token);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((a: any) => a.name)).toEqual(['B', 'E', 'D', 'C', 'A']);
    expect(all.json().data[0]).toEqual(made.B);
    expect(all.json().paginator).toEqual({
      itemsCount: 5, offset: 0, limit: 100, pageCount: 1, page: 1, pagingCounter: 1,
      hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null,
    });

    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(token, `?limit=2&page=${page}`)));
    expect(pages.map((res) => res.json().data.map((a: any) => a.name))).toEqual([['B', 'E'], ['D', 'C'], ['A'], []]);
    expect(pages[1].json().paginator).toEqual({
      itemsCount: 5, offset: 2, limit: 2, pageCount: 3, page: 2, pagingCounter: 3,
      hasPrevPage: true, hasNextPage: true, prevPage: 1, nextPage: 3,
    });
    expect(pages[3].json().paginator).toMatchObject({ itemsCount: 5, page: 4, hasPrevPage: true, hasNextPage: false, prevPage: 3, nextPage: null });
  });

  it('filters by type', async () => {
    const { token } = await signUp(h);
    await added(token, { name: 'Home' });
    await added(token, { name: 'Office', type: 'SECONDARY' });
    await added(token, { name: 'Shop', type: 'SECONDARY' });
    const primary = await list(token, '?type=PRIMARY');
    expect(primary.json().data.map((a: any) => a.name)).toEqual(['Home']);
    expect(primary.json().paginator.itemsCount).toBe(1);
    const secondary = await list(token, '?type=SECONDARY&limit=1');
    expect(secondary.json().data).toHaveLength(1);
    expect(secondary.json().data[0].type).toBe('SECONDARY');
    expect(secondary.json().paginator).toMatchObject({ itemsCount: 2, pageCount: 2 });
  });

  it('answers an empty page for a client with no addresses', async () => {
    const { token } = await signUp(h);
    const res = await list(token);
    expect(res.json()).toEqual({
      statusCode: 200, success: true, data: [],
      paginator: { itemsCount: 0, offset: 0, limit: 100, pageCount: 0, page: 1, pagingCounter: 1, hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null },
    });
  });

  it('shows a client only its own addresses, never another client\'s or another tenant\'s', async () => {
    const mine = await signUp(h);
    const neighbour = await signUp(h);
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const own = await added(mine.token, { name: 'Mine' });
    await added(neighbour.token, { name: 'Neighbour' });
    await added(foreign.token, { name: 'Foreign' }, h.otherApiKey);
    const res = await list(mine.token);
    expect(res.json().data).toEqual([own]);
    expect(res.json().paginator.itemsCount).toBe(1);
    expect((await list(foreign.token, '', h.otherApiKey)).json().data.map((a: any) => a.name)).toEqual(['Foreign']);
  });

  it.each([
    ['?type=BILLING', 'query.type must be one of: PRIMARY, SECONDARY'],
    ['?limit=0', 'query.limit must be >= 1'],
    ['?limit=501', 'query.limit must be <= 500'],
    ['?page=0', 'query.page must be >= 1'],
    ['?page=two', 'query.page must be integer'],
  ])('refuses %s', async (query, message) => {
    const { token } = await signUp(h);
    const res = await list(token, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message, error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) });
  });
});

describe('getDeliveryAddress: GET /client/delivery-addresses/{id}', () => {
  it('answers one of the client\'s own addresses', async () => {
    const { token } = await signUp(h);
    const address = await added(token);
    const res = await get(token, address.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, data: address });
  });

  it('answers 404 for an unknown id, another client\'s and another tenant\'s', async () => {
    const { token } = await signUp(h);
    const neighbour = await signUp(h);
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const theirs = await added(neighbour.token);
    const abroad = await added(foreign.token, {}, h.otherApiKey);
    for (const id of [UNKNOWN_ID, theirs.id, abroad.id]) {
      const res = await get(token, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Delivery address not found', error: 'Not Found', code: 'NOT_FOUND' });
    }
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const { token } = await signUp(h);
    for (const id of ['not-a-uuid', '123', '6a1f3c2e-9b4d-4e8a-8c7f-1d2e3f4a5b6']) {
      const res = await get(token, id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'params.id must match format "uuid"', error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) });
    }
  });
});

describe('updateDeliveryAddress: PATCH /client/delivery-addresses/{id}', () => {
  it('changes only the fields sent and moves updatedAt', async () => {
    const { token } = await signUp(h);
    const address = await added(token);
    h.clock.advance(60_000);
    const res = await patch(token, address.id, { phoneNumber: '+233209876543', city: 'Tema' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toEqual({ ...address, phoneNumber: '+233209876543', city: 'Tema', updatedAt: data.updatedAt });
    expect(new Date(data.updatedAt).getTime()).toBeGreaterThan(new Date(address.updatedAt).getTime());
    expect((await get(token, address.id)).json().data).toEqual(data);
  });

  it('refuses an empty body, unknown properties and broken fields, and changes nothing', async () => {
    const { token } = await signUp(h);
    const address = await added(token);
    const cases: [unknown, string][] = [
      [{}, 'body must change at least one of: type, name, region, city, phoneNumber, address'],
      [{ landmark: 'Near the mosque' }, "body has an unknown property 'landmark'"],
      [{ type: 'BILLING' }, 'body.type must be one of: PRIMARY, SECONDARY'],
      [{ phoneNumber: '024412345' }, 'body.phoneNumber must NOT have fewer than 10 characters'],
      [{ name: '' }, 'body.name must NOT have fewer than 1 characters'],
      [{ city: null }, 'body.city must be string'],
    ];
    for (const [payload, message] of cases) {
      const res = await patch(token, address.id, payload);
      expect({ payload, status: res.statusCode, body: res.json() })
        .toEqual({ payload, status: 400, body: { statusCode: 400, requestId: expect.any(String), message, error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) } });
    }
    expect((await get(token, address.id)).json().data).toEqual(address);
  });

  it('does not make an address PRIMARY by default when type is not sent', async () => {
    const { token } = await signUp(h);
    await added(token);
    const office = await added(token, { type: 'SECONDARY' });
    const res = await patch(token, office.id, { name: 'Front desk' });
    expect(res.json().data).toMatchObject({ type: 'SECONDARY', name: 'Front desk' });
  });

  it('making a SECONDARY address PRIMARY demotes the old PRIMARY', async () => {
    const { token, account } = await signUp(h);
    const home = await added(token);
    const office = await added(token, { type: 'SECONDARY' });
    const res = await patch(token, office.id, { type: 'PRIMARY' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.type).toBe('PRIMARY');
    expect((await get(token, home.id)).json().data.type).toBe('SECONDARY');
    expect((await primaries(account.id)).map((row) => row.id)).toEqual([office.id]);
    // Making the PRIMARY address PRIMARY again changes nothing else.
    expect((await patch(token, office.id, { type: 'PRIMARY' })).json().data.type).toBe('PRIMARY');
    expect((await primaries(account.id)).map((row) => row.id)).toEqual([office.id]);
  });

  it('setting the PRIMARY address to SECONDARY leaves the client with none', async () => {
    const { token, account } = await signUp(h);
    const home = await added(token);
    await added(token, { type: 'SECONDARY' });
    expect((await patch(token, home.id, { type: 'SECONDARY' })).json().data.type).toBe('SECONDARY');
    expect(await primaries(account.id)).toHaveLength(0);
  });

  it('leaves exactly one PRIMARY after five concurrent "make PRIMARY" requests', async () => {
    const { token, account } = await signUp(h);
    await added(token);
    const others = [];
    for (let i = 0; i < 5; i += 1) others.push(await added(token, { type: 'SECONDARY', name: `Branch ${i}` }));
    const answers = await Promise.all(others.map((address) => patch(token, address.id, { type: 'PRIMARY' })));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const left = await primaries(account.id);
    expect(left).toHaveLength(1);
    expect(others.map((address) => address.id)).toContain(left[0].id);
    const listed = (await list(token)).json().data;
    expect(listed.filter((a: any) => a.type === 'PRIMARY')).toHaveLength(1);
    expect(listed[0].id).toBe(left[0].id);
  });

  it('answers 404 for another client\'s and another tenant\'s address, and changes nothing', async () => {
    const { token } = await signUp(h);
    await added(token);
    const neighbour = await signUp(h);
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const theirs = await added(neighbour.token);
    const abroad = await added(foreign.token, {}, h.otherApiKey);
    for (const target of [theirs, abroad]) {
      const before = await rowById(target.id);
      const res = await patch(token, target.id, { type: 'PRIMARY', name: 'Taken over' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Delivery address not found', error: 'Not Found', code: 'NOT_FOUND' });
      expect(await rowById(target.id)).toEqual(before);
    }
    expect((await patch(token, UNKNOWN_ID, { name: 'Nobody' })).statusCode).toBe(404);
    // The caller's own PRIMARY was not demoted by the refused request.
    expect((await list(token, '?type=PRIMARY')).json().data).toHaveLength(1);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const { token } = await signUp(h);
    const res = await patch(token, 'not-a-uuid', { name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('params.id must match format "uuid"');
  });
});

describe('deleteDeliveryAddress: DELETE /client/delivery-addresses/{id}', () => {
  it('deletes an address, after which it is gone', async () => {
    const { token } = await signUp(h);
    const address = await added(token, { type: 'SECONDARY' });
    const res = await remove(token, address.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Delivery address deleted' });
    expect(await rowById(address.id)).toBeUndefined();
    expect((await get(token, address.id)).statusCode).toBe(404);
    expect((await remove(token, address.id)).statusCode).toBe(404);
  });

  it('does not promote another address when the PRIMARY one is deleted', async () => {
    const { token, account } = await signUp(h);
    const home = await added(token);
    await added(token, { type: 'SECONDARY' });
    await added(token, { type: 'SECONDARY' });
    expect((await remove(token, home.id)).statusCode).toBe(200);
    const rows = await rowsOf(account.id);
    expect(rows.map((row) => row.type)).toEqual(['SECONDARY', 'SECONDARY']);
  });

  it('answers 404 for another client\'s and another tenant\'s address, and deletes nothing', async () => {
    const { token } = await signUp(h);
    const neighbour = await signUp(h);
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const theirs = await added(neighbour.token);
    const abroad = await added(foreign.token, {}, h.otherApiKey);
    for (const target of [theirs, abroad]) {
      const before = await rowById(target.id);
      const res = await remove(token, target.id);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      expect(await rowById(target.id)).toEqual(before);
    }
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const { token } = await signUp(h);
    const res = await remove(token, 'abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('params.id must match format "uuid"');
  });
});

describe('authentication', () => {
  const calls: [string, (token: string | undefined, apiKey?: string) => ReturnType<typeof list>][] = [
    ['create', (token, apiKey) => create(token, addressBody(), apiKey)],
    ['list', (token, apiKey) => list(token, '', apiKey)],
    ['get', (token, apiKey) => get(token, UNKNOWN_ID, apiKey)],
    ['patch', (token, apiKey) => patch(token, UNKNOWN_ID, { name: 'x' }, apiKey)],
    ['delete', (token, apiKey) => remove(token, UNKNOWN_ID, apiKey)],
  ];

  it.each(calls)('%s needs a bearer token', async (_name, call) => {
    const res = await call(undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      statusCode: 401, requestId: expect.any(String), message: 'A bearer access token is required (Authorization: Bearer <accessToken>)', error: 'Unauthorized', code: 'MISSING_TOKEN',
    });
  });

  it.each(calls)('%s refuses a token of another tenant, and a missing Api-Key', async (_name, call) => {
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const res = await call(foreign.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_TOKEN');
    const noKey = await call(foreign.token, null as unknown as string);
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json().code).toBe('MISSING_API_KEY');
  });
});
