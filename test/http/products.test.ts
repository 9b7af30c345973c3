import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';

let h: Harness;
let token: string;
let otherToken: string;
beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  otherToken = (await signUp(h, individualBody(), h.otherApiKey)).token;
});
afterAll(async () => { await h.close(); });

const list = (query = '', as = token, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/client/products${query}`, token: as, apiKey });
const get = (id: string, as = token, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/client/products/${id}`, token: as, apiKey });
const idOf = async (code: string) => (await h.db.selectFrom('products').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

describe('listProducts: GET /client/products', () => {
  it('lists the company\'s ACTIVE ONLINE products, one per policy type, by name, with their insurer', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const { data, paginator } = res.json();
    expect(paginator).toMatchObject({ itemsCount: 39, page: 1, limit: 100, pageCount: 1 });
    expect(new Set(data.map((p: { category: string }) => p.category)).size).toBe(39);
    expect(data.every((p: { status: string; distribution: string }) => p.status === 'ACTIVE' && p.distribution === 'ONLINE')).toBe(true);
    const names = data.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const auto = data.find((p: { category: string }) => p.category === 'AUTO');
    expect(auto).toMatchObject({
      code: 'AUTO-ONLINE', insurer: { name: 'Gold Coast General Insurance', type: 'INSURER', kind: 'NON_LIFE' },
      premiumRates: { thirdPartyBasicPremium: 450 }, standardCommission: { value: 12.5, type: 'PERCENTAGE' },
    });
    expect(auto.assignedAt).not.toBeNull();
  });

  it('filters by category, name, sub-category, insurer, assignment and distribution, and pages', async () => {
    expect((await list('?category=AUTO')).json().data.map((p: { code: string }) => p.code)).toEqual(['AUTO-ONLINE']);
    expect((await list('?name=FUNERAL')).json().data.map((p: { category: string }) => p.category)).toEqual(['GROUP_FUNERAL']);
    const volta = (await h.db.selectFrom('companies').select('id').where('subdomain', '=', 'voltalife').executeTakeFirstOrThrow()).id;
    const life = (await list(`?insurer=${volta}`)).json().data;
    expect(life.length).toBeGreaterThan(0);
    expect(life.every((p: { insurerId: string }) => p.insurerId === volta)).toBe(true);
    expect((await list('?assigned=true')).json().paginator.itemsCount).toBe(39);
    expect((await list('?assigned=false')).json().paginator.itemsCount).toBe(0);
    expect((await list('?distribution=ONLINE')).json().paginator.itemsCount).toBe(39);
    expect((await list('?distribution=OFFLINE')).json()).toMatchObject({ data: [], paginator: { itemsCount: 0 } });
    expect((await list('?subCategory=FLEET')).json().data).toEqual([]); // an OFFLINE product's sub-category
    expect((await list('?limit=10&page=4')).json()).toMatchObject({ paginator: { itemsCount: 39, page: 4, pageCount: 4, hasNextPage: false } });
    expect((await list('?limit=10&page=4')).json().data).toHaveLength(9);
  });

  it('rejects bad filters naming them, and needs a client token', async () => {
    expect((await list('?category=SPACE_TRAVEL')).json().message).toMatch(/^query\.category must be one of: AUTO, /);
    expect((await list('?insurer=gold-coast')).json().message).toBe('query.insurer must match format "uuid"');
    expect((await list('?assigned=maybe')).json().message).toBe('query.assigned must be boolean');
    expect((await h.call({ method: 'GET', url: '/api/v1/client/products' })).statusCode).toBe(401);
  });

  it('shows another tenant\'s clients none of this company\'s products', async () => {
    expect((await list('', otherToken, h.otherApiKey)).json().paginator.itemsCount).toBe(0);
  });
});

describe('getProduct: GET /client/products/{id}', () => {
  it('answers a product the client can buy', async () => {
    const res = await get(await idOf('HOME-ONLINE'));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ code: 'HOME-ONLINE', category: 'HOME', insurer: { shortName: 'GCGI' } });
  });

  it('does not find OFFLINE, DEACTIVATED, unknown or another company\'s products', async () => {
    expect((await get(await idOf('AUTO-FLEET-OFFLINE'))).statusCode).toBe(404);
    const travel = await idOf('TRAVEL-ONLINE');
    await h.db.updateTable('products').set({ status: 'DEACTIVATED' }).where('id', '=', travel).execute();
    expect((await get(travel)).statusCode).toBe(404);
    expect((await list('?category=TRAVEL')).json().data).toEqual([]);
    expect((await get('00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await get(await idOf('HOME-ONLINE'), otherToken, h.otherApiKey)).statusCode).toBe(404);
    expect((await get('not-a-uuid')).statusCode).toBe(400);
  });
});
