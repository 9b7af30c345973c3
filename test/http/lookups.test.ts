import { lookupHandlers } from '../../handlers/lookups/index.js';
import { paginate } from '../../server/platform/pagination.js';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const get = async (url: string, apiKey?: string | null) => {
  const res = await h.call({ method: 'GET', url: `/api/v1${url}`, apiKey });
  return { status: res.statusCode, body: res.json() };
};

/** Every company the harness seeds (the sandbox companies plus the second tenant), by name. */
const ALL_COMPANIES = [
  'Adjoa Mensah Insurance Agency', 'Ankobra Pensions Trust', 'ClickCover Digital', 'Coverline Sandbox Brokers',
  'Gold Coast General Insurance', 'Harmattan Health Insurance', 'Kente Micro Insurance', 'Other Tenant Assurance',
  'Volta Life Assurance',
];
const INSURERS = [
  'Ankobra Pensions Trust', 'Gold Coast General Insurance', 'Harmattan Health Insurance', 'Kente Micro Insurance',
  'Other Tenant Assurance', 'Volta Life Assurance',
];

const names = (body: { data: { name: string }[] }) => body.data.map((row) => row.name);

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown, keys: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => allKeys(item, keys));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) { keys.push(key); allKeys(child, keys); }
  }
  return keys;
}

describe('paginate (server/pagination.ts)', () => {
  it('computes a middle page', () => {
    expect(paginate({ page: 2, limit: 2, itemsCount: 9 })).toEqual({
      offset: 2,
      paginator: {
        itemsCount: 9, offset: 2, limit: 2, pageCount: 5, page: 2, pagingCounter: 3,
        hasPrevPage: true, hasNextPage: true, prevPage: 1, nextPage: 3,
      },
    });
  });

  it('computes the first and the last page', () => {
    expect(paginate({ page: 1, limit: 100, itemsCount: 9 }).paginator).toEqual({
      itemsCount: 9, offset: 0, limit: 100, pageCount: 1, page: 1, pagingCounter: 1,
      hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null,
    });
    expect(paginate({ page: 5, limit: 2, itemsCount: 9 }).paginator).toMatchObject({
      offset: 8, pageCount: 5, pagingCounter: 9, hasPrevPage: true, hasNextPage: false, prevPage: 4, nextPage: null,
    });
  });

  it('rounds the page count up and handles an exact fit', () => {
    expect(paginate({ page: 1, limit: 3, itemsCount: 10 }).paginator.pageCount).toBe(4);
    expect(paginate({ page: 1, limit: 5, itemsCount: 10 }).paginator.pageCount).toBe(2);
  });

  it('describes a page past the last one', () => {
    expect(paginate({ page: 7, limit: 2, itemsCount: 9 })).toEqual({
      offset: 12,
      paginator: {
        itemsCount: 9, offset: 12, limit: 2, pageCount: 5, page: 7, pagingCounter: 13,
        hasPrevPage: true, hasNextPage: false, prevPage: 6, nextPage: null,
      },
    });
  });

  it('describes an empty list', () => {
    expect(paginate({ page: 1, limit: 100, itemsCount: 0 }).paginator).toEqual({
      itemsCount: 0, offset: 0, limit: 100, pageCount: 0, page: 1, pagingCounter: 1,
      hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null,
    });
  });

  it('refuses a page or limit below 1 and a negative count', () => {
    expect(() => paginate({ page: 0, limit: 10, itemsCount: 5 })).toThrow(RangeError);
    expect(() => paginate({ page: 1, limit: 0, itemsCount: 5 })).toThrow(RangeError);
    expect(() => paginate({ page: 1.5, limit: 10, itemsCount: 5 })).toThrow(RangeError);
    expect(() => paginate({ page: 1, limit: 10, itemsCount: -1 })).toThrow(RangeError);
  });
});

describe('listInsurers: GET /insurers', () => {
  it('lists insurers and micro-insurers only, by name, with the Insurer fields', async () => {
    const { status, body } = await get('/insurers');
    expect(status).toBe(200);
    expect(body.statusCode).toBe(200);
    expect(body.success).toBe(true);
    expect(names(body)).toEqual(INSURERS);
    // The sandbox tenant is a BROKER: not an insurer.
    expect(names(body)).not.toContain('Coverline Sandbox Brokers');
    expect(names(body)).not.toContain('ClickCover Digital');
    for (const insurer of body.data) {
      expect(Object.keys(insurer).sort()).toEqual(
        ['address', 'country', 'email', 'id', 'kind', 'logo', 'name', 'primaryColor', 'subdomain', 'type'],
      );
      expect(['INSURER', 'MICRO_INSURER']).toContain(insurer.type);
    }
    expect(body.data.find((i: { name: string }) => i.name === 'Gold Coast General Insurance')).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Gold Coast General Insurance', email: 'info@goldcoast-general.example',
      subdomain: 'goldcoast', address: '5 Liberation Road, Accra', kind: 'NON_LIFE', type: 'INSURER',
      primaryColor: '#C9A227', country: 'GH', logo: null,
    });
  });

  it('filters by type', async () => {
    const micro = await get('/insurers?type=MICRO_INSURER');
    expect(micro.status).toBe(200);
    expect(names(micro.body)).toEqual(['Kente Micro Insurance']);
    expect(micro.body.data[0]).toMatchObject({ type: 'MICRO_INSURER', kind: 'LIFE', subdomain: 'kente' });
    const insurers = await get('/insurers?type=INSURER');
    expect(names(insurers.body)).toEqual(INSURERS.filter((name) => name !== 'Kente Micro Insurance'));
  });

  it('filters by name, ignoring case', async () => {
    expect(names((await get('/insurers?name=VOLTA')).body)).toEqual(['Volta Life Assurance']);
    expect(names((await get('/insurers?name=insurance')).body))
      .toEqual(['Gold Coast General Insurance', 'Harmattan Health Insurance', 'Kente Micro Insurance']);
    // A broker's name never matches here, even when it contains the text.
    expect(names((await get('/insurers?name=Sandbox')).body)).toEqual([]);
  });

  it('takes LIKE wildcards in the name literally', async () => {
    expect((await get('/insurers?name=%25')).body.data).toEqual([]);
    expect((await get('/insurers?name=_')).body.data).toEqual([]);
    expect((await get('/insurers?name=%5C')).body.data).toEqual([]);
    expect((await get('/insurers?name=Gold%25Insurance')).body.data).toEqual([]);
  });

  it('filters by exact email, ignoring case', async () => {
    expect(names((await get('/insurers?email=CARE%40Volta-Life.example')).body)).toEqual(['Volta Life Assurance']);
    expect((await get('/insurers?email=care%40volta-life.exampl')).body.data).toEqual([]);
  });

  it('filters by country', async () => {
    expect(names((await get('/insurers?country=NG')).body)).toEqual(['Other Tenant Assurance']);
    expect(names((await get('/insurers?country=GH')).body)).toEqual(INSURERS.filter((name) => name !== 'Other Tenant Assurance'));
    expect(names((await get('/insurers?country=GH&type=MICRO_INSURER&name=kente')).body)).toEqual(['Kente Micro Insurance']);
    expect((await get('/insurers?country=KE')).body.data).toEqual([]);
  });

  it('rejects bad filters naming the field', async () => {
    const broker = await get('/insurers?type=BROKER');
    expect(broker.status).toBe(400);
    expect(broker.body).toEqual({
      statusCode: 400, requestId: expect.any(String), message: 'query.type must be one of: INSURER, MICRO_INSURER', error: 'Bad Request', code: 'VALIDATION_ERROR',
      errors: [{ field: 'query.type', message: 'must be one of: INSURER, MICRO_INSURER', code: 'enum' }],
    });
    const bogus = await get('/insurers?type=BOGUS');
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toMatch(/^query\.type /);
    const country = await get('/insurers?country=Ghana');
    expect(country.status).toBe(400);
    expect(country.body.message).toMatch(/^query\.country /);
    const email = await get('/insurers?email=not-an-email');
    expect(email.status).toBe(400);
    expect(email.body.message).toMatch(/^query\.email /);
  });
});

describe('listCountries: GET /countries', () => {
  it('requires include and names it', async () => {
    const { status, body } = await get('/countries');
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'query.include is required', error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) });
  });

  it('rejects an unknown include', async () => {
    const { status, body } = await get('/countries?include=states');
    expect(status).toBe(400);
    expect(body.message).toBe('query.include must be one of: none, stateProvinces');
  });

  it('answers Ghana with its regions when include=stateProvinces', async () => {
    const { status, body } = await get('/countries?include=stateProvinces&countryCode=GH');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(1);
    const [ghana] = body.data;
    expect(ghana).toMatchObject({ name: 'Ghana', countryCode: 'GH', phone: '+233', currency: 'GHS', flag: '🇬🇭' });
    expect(ghana.stateProvinces).toEqual(expect.arrayContaining([
      { name: 'Ashanti', code: 'AH' }, { name: 'Greater Accra', code: 'AA' }, { name: 'Volta', code: 'TV' },
    ]));
    expect(ghana.stateProvinces).toHaveLength(16);
    const stateNames = ghana.stateProvinces.map((s: { name: string }) => s.name);
    expect(stateNames).toEqual([...stateNames].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('leaves stateProvinces out when include=none', async () => {
    const { status, body } = await get('/countries?include=none');
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThan(200);
    for (const country of body.data) expect(country).not.toHaveProperty('stateProvinces');
    const ghana = body.data.find((c: { countryCode: string }) => c.countryCode === 'GH');
    expect(ghana).toEqual({ name: 'Ghana', countryCode: 'GH', phone: '+233', currency: 'GHS', flag: '🇬🇭' });
  });

  it('filters by name, ignoring case, ordered by name', async () => {
    const { body } = await get('/countries?include=none&name=GUINEA');
    expect(names(body)).toEqual(['Equatorial Guinea', 'Guinea', 'Guinea-Bissau', 'Papua new Guinea']);
    expect((await get('/countries?include=none&name=%25')).body.data).toEqual([]);
  });

  it('filters by country code', async () => {
    const { body } = await get('/countries?include=none&countryCode=NG');
    expect(body.data).toEqual([{ name: 'Nigeria', countryCode: 'NG', phone: '+234', currency: 'NGN', flag: '🇳🇬' }]);
    const bad = await get('/countries?include=none&countryCode=gh');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^query\.countryCode /);
  });
});

describe('listCurrencies: GET /currencies', () => {
  it('lists the default currency (GHS) first, then by code', async () => {
    const { status, body } = await get('/currencies');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const [first, ...rest] = body.data;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), createdAt: expect.any(String), updatedAt: expect.any(String),
      isDefault: true, status: 'ACTIVE', flag: '🇬🇭', country: 'Ghana', name: 'Ghanaian Cedi', code: 'GHS', symbol: 'GH₵', locale: 'en-GH',
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    expect(rest.every((c: { isDefault: boolean }) => c.isDefault === false)).toBe(true);
    const codes = rest.map((c: { code: string }) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['USD', 'EUR', 'NGN', 'XOF']));
  });

  it('filters by code', async () => {
    const { body } = await get('/currencies?code=USD');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ code: 'USD', symbol: '$', name: 'US Dollar', country: 'United States', isDefault: false });
    expect((await get('/currencies?code=ZZZ')).body.data).toEqual([]);
  });

  it('filters by status', async () => {
    await h.db.updateTable('currencies').set({ status: 'INACTIVE' }).where('code', '=', 'XOF').execute();
    try {
      const inactive = await get('/currencies?status=INACTIVE');
      expect(inactive.body.data.map((c: { code: string }) => c.code)).toEqual(['XOF']);
      expect(inactive.body.data[0].status).toBe('INACTIVE');
      const active = await get('/currencies?status=ACTIVE');
      expect(active.body.data[0].code).toBe('GHS');
      expect(active.body.data.map((c: { code: string }) => c.code)).not.toContain('XOF');
    } finally {
      await h.db.updateTable('currencies').set({ status: 'ACTIVE' }).where('code', '=', 'XOF').execute();
    }
  });

  it('rejects bad filters naming the field', async () => {
    const status = await get('/currencies?status=BOGUS');
    expect(status.status).toBe(400);
    expect(status.body.message).toBe('query.status must be one of: ACTIVE, INACTIVE');
    const code = await get('/currencies?code=usd');
    expect(code.status).toBe(400);
    expect(code.body.message).toMatch(/^query\.code /);
  });
});

describe('listCompanies: GET /client/companies', () => {
  it('lists every company on the platform, by name, with default paging', async () => {
    const { status, body } = await get('/client/companies');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(names(body)).toEqual(ALL_COMPANIES);
    expect(body.paginator).toEqual({
      itemsCount: 9, offset: 0, limit: 100, pageCount: 1, page: 1, pagingCounter: 1,
      hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null,
    });
    const sandbox = body.data.find((c: { name: string }) => c.name === 'Coverline Sandbox Brokers');
    expect(sandbox).toEqual({
      id: h.tenantId, name: 'Coverline Sandbox Brokers', email: 'sandbox@coverline.example', type: 'BROKER', kind: 'NON_LIFE',
      shortName: 'Sandbox', description: 'The sandbox tenant: a broker selling every product line, for trying the API.',
      primaryColor: '#0B5FFF', subdomain: 'sandbox', logo: null, country: 'GH',
    });
  });

  it('answers the same directory to every tenant', async () => {
    const mine = await get('/client/companies');
    const theirs = await get('/client/companies', h.otherApiKey);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual(mine.body);
  });

  it('pages with limit and page', async () => {
    const { status, body } = await get('/client/companies?limit=2&page=2');
    expect(status).toBe(200);
    expect(names(body)).toEqual(ALL_COMPANIES.slice(2, 4));
    expect(body.paginator).toEqual({
      itemsCount: 9, offset: 2, limit: 2, pageCount: 5, page: 2, pagingCounter: 3,
      hasPrevPage: true, hasNextPage: true, prevPage: 1, nextPage: 3,
    });
    const last = await get('/client/companies?limit=2&page=5');
    expect(names(last.body)).toEqual(['Volta Life Assurance']);
    expect(last.body.paginator).toMatchObject({ offset: 8, pagingCounter: 9, hasNextPage: false, nextPage: null, prevPage: 4 });
  });

  it('answers an empty page past the last one, with a correct paginator', async () => {
    const { status, body } = await get('/client/companies?limit=2&page=6');
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.paginator).toEqual({
      itemsCount: 9, offset: 10, limit: 2, pageCount: 5, page: 6, pagingCounter: 11,
      hasPrevPage: true, hasNextPage: false, prevPage: 5, nextPage: null,
    });
  });

  it('counts only the filtered rows', async () => {
    const { body } = await get('/client/companies?type=INSURER&limit=2');
    expect(names(body)).toEqual(['Ankobra Pensions Trust', 'Gold Coast General Insurance']);
    expect(body.paginator).toMatchObject({ itemsCount: 5, pageCount: 3, hasNextPage: true, nextPage: 2 });
    const none = await get('/client/companies?name=nobody');
    expect(none.body.data).toEqual([]);
    expect(none.body.paginator).toEqual({
      itemsCount: 0, offset: 0, limit: 100, pageCount: 0, page: 1, pagingCounter: 1,
      hasPrevPage: false, hasNextPage: false, prevPage: null, nextPage: null,
    });
  });

  it('filters by type, name and email', async () => {
    expect(names((await get('/client/companies?type=AGENT')).body)).toEqual(['Adjoa Mensah Insurance Agency']);
    expect(names((await get('/client/companies?type=DIGITAL_AGENT')).body)).toEqual(['ClickCover Digital']);
    expect(names((await get('/client/companies?type=BROKER')).body)).toEqual(['Coverline Sandbox Brokers']);
    expect(names((await get('/client/companies?name=COVER')).body)).toEqual(['ClickCover Digital', 'Coverline Sandbox Brokers']);
    expect(names((await get('/client/companies?email=Team%40ClickCover.example')).body)).toEqual(['ClickCover Digital']);
    expect((await get('/client/companies?email=clickcover.example%40x.example')).body.data).toEqual([]);
    expect((await get('/client/companies?name=%25&type=INSURER')).body.data).toEqual([]);
  });

  it.each([
    ['limit=0', 'query.limit must be >= 1'],
    ['limit=501', 'query.limit must be <= 500'],
    ['limit=ten', 'query.limit must be integer'],
    ['page=0', 'query.page must be >= 1'],
    ['page=-3', 'query.page must be >= 1'],
    ['type=BOGUS', 'query.type must be one of: INSURER, BROKER, MICRO_INSURER, DIGITAL_AGENT, AGENT'],
  ])('rejects %s naming the field', async (query, message) => {
    const { status, body } = await get(`/client/companies?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ statusCode: 400, requestId: expect.any(String), message, error: 'Bad Request', code: 'VALIDATION_ERROR', errors: expect.any(Array) });
  });
});

describe('vehicles', () => {
  it('lists makes with their models, by name', async () => {
    const { status, body } = await get('/client/vehicles');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(34);
    const toyota = body.data.find((v: { name: string }) => v.name === 'Toyota');
    expect(toyota).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Toyota', models: expect.arrayContaining(['Corolla', 'Hilux', 'Land Cruiser']) });
    expect(names(body)).toEqual([...names(body)].sort());
  });

  it('filters makes by name, ignoring case', async () => {
    const { body } = await get('/client/vehicles?name=toyo');
    expect(names(body)).toEqual(['Toyota']);
    expect((await get('/client/vehicles?name=%25')).body.data).toEqual([]);
    const bad = await get('/client/vehicles?name=');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^query\.name /);
  });

  it('lists body types', async () => {
    const { status, body } = await get('/client/vehicles/body-types');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(19);
    expect(body.data.find((t: { code: string }) => t.code === 'SALOON')).toEqual({
      id: expect.any(String), code: 'SALOON', name: 'Saloon', description: 'Four-door passenger car with a separate boot',
    });
  });

  it('lists schedule types with their usage', async () => {
    const { status, body } = await get('/client/vehicles/schedule-types');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(17);
    expect(body.data.find((t: { code: string }) => t.code === 'PRIVATE_INDIVIDUAL')).toEqual({
      id: expect.any(String), code: 'PRIVATE_INDIVIDUAL', name: 'Private (individual)',
      description: 'Private car used for social, domestic and pleasure purposes by an individual', usage: 'PRIVATE',
    });
    expect(body.data.find((t: { code: string }) => t.code === 'MOTOR_CYCLE').usage).toBe('MOTOR_CYCLE');
    expect(body.data.find((t: { code: string }) => t.code === 'TAXI').usage).toBe('COMMERCIAL');
  });
});

describe('deprecated doubled paths', () => {
  const aliases: [string, string, string][] = [
    ['/client/api/v1/companies?limit=3&page=2&type=INSURER', '/client/companies?limit=3&page=2&type=INSURER', 'listCompaniesLegacy'],
    ['/client/api/v1/vehicles?name=o', '/client/vehicles?name=o', 'listVehiclesLegacy'],
    ['/client/api/v1/vehicles/body-types', '/client/vehicles/body-types', 'listVehicleBodyTypesLegacy'],
    ['/client/api/v1/vehicles/schedule-types', '/client/vehicles/schedule-types', 'listVehicleScheduleTypesLegacy'],
  ];

  it.each(aliases)('%s answers as %s', async (legacy, canonical) => {
    const old = await get(legacy);
    const current = await get(canonical);
    expect(old.status).toBe(200);
    expect(old.body).toEqual(current.body);
    expect(old.body.data.length).toBeGreaterThan(0);
  });

  it('are served by the canonical handler functions', () => {
    expect(lookupHandlers.listCompaniesLegacy).toBe(lookupHandlers.listCompanies);
    expect(lookupHandlers.listVehiclesLegacy).toBe(lookupHandlers.listVehicles);
    expect(lookupHandlers.listVehicleBodyTypesLegacy).toBe(lookupHandlers.listVehicleBodyTypes);
    expect(lookupHandlers.listVehicleScheduleTypesLegacy).toBe(lookupHandlers.listVehicleScheduleTypes);
  });

  it('validates the legacy company query the same way', async () => {
    const { status, body } = await get('/client/api/v1/companies?limit=0');
    expect(status).toBe(400);
    expect(body.message).toBe('query.limit must be >= 1');
  });

  it('marks the legacy operations deprecated in the published contract', async () => {
    const { body: doc } = await get('/openapi.json', null);
    for (const [legacy, canonical, operationId] of aliases) {
      const legacyOp = doc.paths[legacy.split('?')[0]].get;
      const canonicalOp = doc.paths[canonical.split('?')[0]].get;
      expect(legacyOp.operationId).toBe(operationId);
      expect(legacyOp.deprecated).toBe(true);
      expect(legacyOp.description).toContain(canonical.split('?')[0]);
      expect(canonicalOp.deprecated).toBeUndefined();
      expect(canonicalOp.operationId).toBe(operationId.replace(/Legacy$/, ''));
    }
    for (const path of ['/insurers', '/countries', '/currencies']) expect(doc.paths[path].get.deprecated).toBeUndefined();
  });
});

const ENDPOINTS = [
  '/insurers', '/countries?include=stateProvinces', '/currencies', '/client/companies', '/client/api/v1/companies',
  '/client/vehicles', '/client/vehicles/body-types', '/client/vehicles/schedule-types', '/client/api/v1/vehicles',
  '/client/api/v1/vehicles/body-types', '/client/api/v1/vehicles/schedule-types',
];

describe('security and exposure', () => {
  it.each(ENDPOINTS)('%s needs an Api-Key', async (url) => {
    const missing = await get(url, null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ statusCode: 401, requestId: expect.any(String), message: 'The Api-Key header is required', error: 'Unauthorized', code: 'MISSING_API_KEY' });
    const wrong = await get(url, 'sk_test_not-a-real-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, requestId: expect.any(String), message: 'The Api-Key is not valid', error: 'Unauthorized', code: 'INVALID_API_KEY' });
  });

  it('checks the Api-Key before validating the query', async () => {
    const { status, body } = await get('/countries', null);
    expect(status).toBe(401);
    expect(body.code).toBe('MISSING_API_KEY');
  });

  it.each(ENDPOINTS)('%s leaks no internal company settings', async (url) => {
    const res = await h.call({ method: 'GET', url: `/api/v1${url}` });
    expect(res.statusCode).toBe(200);
    const keys = allKeys(res.json());
    expect(keys.filter((key) => /firebase|sms|^db|database|identifier|_/i.test(key))).toEqual([]);
    // The seeded Firebase projects and SMS sender ids never appear as values either.
    expect(res.body).not.toMatch(/coverline-sandbox|other-project|GOLDCOAST|VOLTALIFE|"COVERLINE"/);
  });
});
