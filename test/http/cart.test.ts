import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, plusDays, signUp } from '../helpers/clients.js';

let h: Harness;
let token: string;
let clientId: string;
let otherToken: string;
let foreignToken: string;
let foreignClientId: string;
const products = new Map<string, string>();
const year = new Date().getUTCFullYear();
const start = plusDays(10);
const end = new Date(Date.parse(start) + 364 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  h = await createHarness();
  const signed = await signUp(h);
  token = signed.token;
  clientId = signed.account.id;
  otherToken = (await signUp(h, individualBody())).token;
  const foreign = await signUp(h, individualBody(), h.otherApiKey);
  foreignToken = foreign.token;
  foreignClientId = foreign.account.id;
  const rows = await h.db.selectFrom('products').select(['id', 'category']).where('distribution', '=', 'ONLINE').execute();
  for (const row of rows) products.set(row.category, row.id);
});
afterAll(async () => { await h.close(); });

const house = (extra: Record<string, unknown> = {}) => ({
  sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon', description: 'Four-bedroom house and contents', ...extra,
});
const car = (extra: Record<string, unknown> = {}) => ({
  coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Corolla', registrationNo: 'GR 1234-24',
  chassisNumber: 'JTDBR32E720123456', cubicCapacity: 1800, seats: 5, bodyType: 'SALOON', usage: 'PRIVATE', sumInsured: 85000,
  noClaimDiscountYears: 2, policyExcess: 10, yearOfMake: year - 7, ...extra,
});
const homeItem = (extra: Record<string, unknown> = {}, assets: object[] = [house()]) => ({
  policyType: 'HOME', currency: 'GHS', startDate: start, endDate: end, productId: products.get('HOME'), businessType: 'NEW_BUSINESS', assets, ...extra,
});
const autoItem = (extra: Record<string, unknown> = {}, assets: object[] = [car()]) => ({
  policyType: 'AUTO', currency: 'GHS', startDate: start, endDate: end, productId: products.get('AUTO'), businessType: 'NEW_BUSINESS', assets, ...extra,
});

const add = (body: object, as = token, apiKey?: string) => h.call({ method: 'POST', url: '/api/v1/client/cart', token: as, payload: body, apiKey });
const get = (id: string, as = token, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/client/cart/${id}`, token: as, apiKey });
const patch = (id: string, body: object, as = token, apiKey?: string) => h.call({ method: 'PATCH', url: `/api/v1/client/cart/${id}`, token: as, payload: body, apiKey });
const remove = (id: string, as = token, apiKey?: string) => h.call({ method: 'DELETE', url: `/api/v1/client/cart/${id}`, token: as, apiKey });
const list = (query = '', as = token, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/client/cart${query}`, token: as, apiKey });
const clear = (as = token) => h.call({ method: 'DELETE', url: '/api/v1/client/cart/clear', token: as });
const checkout = (body?: object, as = token, apiKey?: string) => h.call({ method: 'POST', url: '/api/v1/client/cart/checkout', token: as, payload: body, apiKey });
const added = async (body: object, as = token) => {
  const res = await add(body, as);
  if (res.statusCode !== 201) throw new Error(`add failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
};

/**
 * An item in the cart of tenant 2's client. Written directly: the sandbox products are tenant 1's,
 * so that client could not add it through the API.
 */
async function foreignItem() {
  const row = await h.db.insertInto('cart_items').values({
    tenant_id: h.otherTenantId, client_id: foreignClientId, policy_type: 'HOME', body: JSON.stringify(homeItem()),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** What a client's checkout could have written: its policies, its invoices and their items, its notifications, its cart. */
async function footprint(owner = clientId) {
  const count = async (table: 'policies' | 'invoices' | 'notifications' | 'cart_items') => Number((await h.db.selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n')).where('client_id', '=', owner).executeTakeFirstOrThrow()).n);
  const items = Number((await h.db.selectFrom('invoice_items').innerJoin('invoices', 'invoices.id', 'invoice_items.invoice_id')
    .select((eb) => eb.fn.countAll<string>().as('n')).where('invoices.client_id', '=', owner).executeTakeFirstOrThrow()).n);
  const sequences = await h.db.selectFrom('tenant_sequences').select(['name', 'last_value']).where('tenant_id', '=', h.tenantId).orderBy('name').execute();
  return {
    policies: await count('policies'), invoices: await count('invoices'), invoiceItems: items, notifications: await count('notifications'),
    cart: await count('cart_items'), sequences,
  };
}

beforeEach(async () => { await clear(); });

describe('addCartItem: POST /client/cart', () => {
  it('keeps a complete item as sent (defaults filled in) and says it would pass checkout at its price', async () => {
    const res = await add(homeItem());
    expect(res.statusCode).toBe(201);
    const item = res.json().data;
    expect(item).toEqual({
      ...homeItem(), generateInvoice: true, exchangeRate: 1, businessCategory: 'LOCAL',
      id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String),
      checkout: { ready: true, problem: null, premium: 1125 }, // 0.25% of 450000 for a year
    });
  });

  it('takes free-form assets now and says what checkout would refuse, naming the item', async () => {
    const item = await added(autoItem({}, [{ make: 'Toyota', model: 'Corolla', colour: 'Silver', anything: { goes: true } }]));
    expect(item.assets).toEqual([{ make: 'Toyota', model: 'Corolla', colour: 'Silver', anything: { goes: true } }]);
    expect(item.checkout).toEqual({ ready: false, problem: `cart[${item.id}].assets[0].coverage is required`, premium: null });
  });

  it('checks every field but the assets when the item is added, with a 400 naming the field', async () => {
    const message = async (body: Record<string, unknown>) => {
      const res = await add(body);
      expect(res.statusCode).toBe(400);
      return res.json().message;
    };
    const { productId: _drop, ...noProduct } = homeItem();
    expect(await message(noProduct)).toBe('body.productId is required');
    expect(await message(homeItem({ productId: products.get('AUTO') }))).toBe('body.productId: the product is for AUTO cover, not HOME');
    expect(await message(homeItem({ productId: '00000000-0000-4000-8000-000000000000' }))).toBe('body.productId: no ACTIVE ONLINE product with this id is available');
    expect(await message(homeItem({ startDate: plusDays(-1) }))).toMatch(/^body\.startDate must not be in the past/);
    expect(await message(homeItem({ endDate: plusDays(5) }))).toBe('body.endDate must be on or after body.startDate');
    expect(await message(homeItem({ currency: 'XYZ' }))).toBe('body.currency: XYZ is not an ACTIVE currency (see GET /currencies)');
    expect(await message(homeItem({ exchangeRate: 2 }))).toBe('body.exchangeRate must be 1 for GHS, the base currency');
    expect(await message(homeItem({ generateInvoice: false }))).toBe('body.generateInvoice cannot be false in the cart: checkout invoices every item');
    expect(await message(homeItem({ policyNo: 'POL-9999' }))).toBe('body.policyNo is assigned by the server; leave it out');
    expect(await message(homeItem({ clientId: '00000000-0000-4000-8000-000000000000' }))).toBe('body.clientId: a client can only create policies for itself');
    expect(await message(homeItem({ premium: 0 }))).toBe('body.premium must be >= 1');
    expect(await message(homeItem({ landmark: 'Near the mall' }))).toBe("body has an unknown property 'landmark'");
    expect(await message(homeItem({}, []))).toBe('body.assets must NOT have fewer than 1 items');
    expect(await message(homeItem({ policyType: 'SPACESHIP' }))).toMatch(/^body\.policyType must be one of: AUTO, /);
    expect((await list()).json().totals.items).toBe(0);
  });

  it("answers 404 for another client's policy named as oldPolicyId", async () => {
    const other = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: otherToken, payload: homeItem() });
    expect(other.statusCode).toBe(201);
    const res = await add(homeItem({ businessType: 'RENEWAL', oldPolicyId: other.json().data.id }));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Policy not found', code: 'NOT_FOUND' });
  });

  it('holds at most 50 items (409 beyond)', async () => {
    for (let i = 0; i < 50; i += 1) expect((await add(homeItem({ notes: `item ${i}` }))).statusCode).toBe(201);
    const res = await add(homeItem());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CART_FULL', message: 'The cart is full (50 items): check out or remove items first' });
    const page = (await list('?limit=500')).json();
    expect(page.totals).toEqual({ items: 50, readyItems: 50, premiums: [{ currency: 'GHS', amount: 56250, items: 50 }] });
  }, 60_000);
});

describe('listCartItems: GET /client/cart', () => {
  it('pages the cart newest first, with the whole cart\'s totals; a client sees only its own cart', async () => {
    const home = await added(homeItem());
    const draft = await added(autoItem({}, [{ make: 'Toyota' }]));
    const motor = await added(autoItem());
    const theirs = await added(homeItem(), otherToken);

    const all = (await list()).json();
    expect(all.data.map((i: { id: string }) => i.id)).toEqual([motor.id, draft.id, home.id]);
    expect(all.paginator).toMatchObject({ itemsCount: 3, page: 1, pageCount: 1, hasNextPage: false });
    const motorPremium = all.data[0].checkout.premium;
    // The car, a year's private comprehensive cover: third-party basic 450.00 + own damage 85 000 x 5%
    // = 4 250.00 + 1 800 cc loading 5% = 212.50 + 7-year age loading 5% = 212.50 - no-claim discount
    // (2 years) 30% of 4 675.00 = 1 402.50: 3 722.50. The house: 450 000 x 0.25% = 1 125.00.
    expect(motorPremium.toFixed(2)).toBe('3722.50');
    expect(all.totals).toEqual({ items: 3, readyItems: 2, premiums: [{ currency: 'GHS', amount: 1125 + motorPremium, items: 2 }] });

    const second = (await list('?limit=1&page=2')).json();
    expect(second.data.map((i: { id: string }) => i.id)).toEqual([draft.id]);
    expect(second.paginator).toMatchObject({ itemsCount: 3, limit: 1, page: 2, pageCount: 3, hasPrevPage: true, hasNextPage: true });
    expect(second.totals.items).toBe(3);

    const other = (await list('', otherToken)).json();
    expect(other.data.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
    expect((await list('', foreignToken, h.otherApiKey)).json()).toMatchObject({ data: [], totals: { items: 0, readyItems: 0, premiums: [] } });
    await clear(otherToken);
  });
});

describe('getCartItem, updateCartItem, deleteCartItem: GET, PATCH, DELETE /client/cart/{id}', () => {
  it("answers 404 for another client's or another tenant's item, and leaves it unchanged", async () => {
    const mine = await added(homeItem());
    const foreign = await foreignItem();
    const attempts: Array<[string, string, string | undefined]> = [
      [mine.id, otherToken, undefined], [mine.id, foreignToken, h.otherApiKey], [foreign, token, undefined],
    ];
    for (const [id, as, apiKey] of attempts) {
      for (const res of [await get(id, as, apiKey), await patch(id, { notes: 'Taken over' }, as, apiKey), await remove(id, as, apiKey)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ message: 'Cart item not found', code: 'NOT_FOUND' });
      }
    }
    expect((await get(mine.id)).json().data).toEqual(mine);
    const kept = await h.db.selectFrom('cart_items').select('body').where('id', '=', foreign).executeTakeFirstOrThrow();
    expect(kept.body).not.toHaveProperty('notes');
  });

  it('changes the fields sent, removes those sent as null, and checks the item as changed', async () => {
    const item = await added(homeItem({ premium: 1125, notes: 'Ask about flood cover' }, [house({ location: undefined })]));
    expect(item.checkout).toMatchObject({ ready: false, problem: `cart[${item.id}].assets[0].location is required` });

    const res = await patch(item.id, { assets: [house({ sumInsured: 500000 })], notes: null });
    expect(res.statusCode).toBe(200);
    const changed = res.json().data;
    expect(changed).toMatchObject({ id: item.id, assets: [house({ sumInsured: 500000 })], premium: 1125, createdAt: item.createdAt });
    expect(changed).not.toHaveProperty('notes');
    // The quoted premium is no longer the price: checkout would refuse it, so the item says so.
    expect(changed.checkout).toEqual({
      ready: false, premium: null,
      problem: `cart[${item.id}].premium must be 1250.00 GHS, the price of this cover (leave premium out to accept it)`,
    });
    const dropped = (await patch(item.id, { premium: null })).json().data;
    expect(dropped).not.toHaveProperty('premium');
    expect(dropped.checkout).toEqual({ ready: true, problem: null, premium: 1250 });

    const refused = async (body: object) => {
      const r = await patch(item.id, body);
      expect(r.statusCode).toBe(400);
      return r.json().message;
    };
    expect(await refused({})).toBe('body must change at least one field of the item');
    expect(await refused({ endDate: plusDays(1) })).toBe('body.endDate must be on or after body.startDate');
    expect(await refused({ policyType: 'AUTO' })).toBe('body.productId: the product is for HOME cover, not AUTO');
    expect(await refused({ currency: null })).toBe('body.currency must be string');
    expect(await refused({ generateInvoice: false })).toBe('body.generateInvoice must be true');
    expect(await refused({ policyNo: 'POL-1' })).toBe("body has an unknown property 'policyNo'");
    // Nothing of the refused changes stuck.
    expect((await get(item.id)).json().data).toEqual(dropped);

    // A field left out keeps its value, even one with a default when added.
    const global = await added(homeItem({ businessCategory: 'GLOBAL' }));
    expect((await patch(global.id, { notes: 'Placed abroad' })).json().data).toMatchObject({ businessCategory: 'GLOBAL', notes: 'Placed abroad' });

    const moved = (await patch(item.id, { policyType: 'AUTO', productId: products.get('AUTO'), assets: [car()] })).json().data;
    expect(moved).toMatchObject({ policyType: 'AUTO', checkout: { ready: true } });
    expect((await h.db.selectFrom('cart_items').select('policy_type').where('id', '=', item.id).executeTakeFirstOrThrow()).policy_type).toBe('AUTO');
  });

  it('removes an item, which is then gone', async () => {
    const item = await added(homeItem());
    const res = await remove(item.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Cart item removed' });
    expect((await get(item.id)).statusCode).toBe(404);
    expect((await remove(item.id)).statusCode).toBe(404);
  });
});

describe('clearCart: DELETE /client/cart/clear', () => {
  it("empties the client's cart and no one else's", async () => {
    await added(homeItem());
    await added(autoItem());
    const theirs = await added(homeItem(), otherToken);
    const res = await clear();
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Cart cleared (2 items removed)' });
    expect((await list()).json().totals.items).toBe(0);
    expect((await clear()).json().message).toBe('Cart cleared (0 items removed)');
    expect((await get(theirs.id, otherToken)).statusCode).toBe(200);
    await clear(otherToken);
  });
});

describe('checkoutCart: POST /client/cart/checkout', () => {
  it('turns the cart into PROCESSING policies and one invoice, empties the cart and tells the client once', async () => {
    const home = await added(homeItem());
    const motor = await added(autoItem({ notes: 'Second car' }));
    const before = await footprint();

    const res = await checkout();
    expect(res.statusCode).toBe(201);
    const { policies, invoice } = res.json().data;
    expect(policies).toHaveLength(2);
    // In the order the items were added, numbered one after the other.
    expect(policies.map((p: { policyType: string }) => p.policyType)).toEqual(['HOME', 'AUTO']);
    expect(Number(policies[1].policyNo.slice(4))).toBe(Number(policies[0].policyNo.slice(4)) + 1);
    const total = policies[0].premium + policies[1].premium;
    expect(policies[0]).toMatchObject({ premium: 1125, state: 'PROCESSING', generateInvoice: true, client: { id: clientId }, isPaid: false });
    expect(policies[1]).toMatchObject({ premium: motor.checkout.premium, state: 'PROCESSING', notes: 'Second car' });
    expect(invoice).toEqual({
      id: expect.any(String), invoiceNo: expect.stringMatching(/^INV-\d{4,}$/), currency: 'GHS', exchangeRate: 1, amount: total, convertedAmount: total,
      invoiceDate: expect.any(String), description: `Premiums for policies ${policies[0].policyNo}, ${policies[1].policyNo}`,
      items: policies.map((p: { id: string; policyNo: string; premium: number }) => ({ policyId: p.id, policyNo: p.policyNo, amount: p.premium })),
    });
    for (const policy of policies) {
      expect(policy.invoice).toMatchObject({ id: invoice.id, invoiceNo: invoice.invoiceNo, amount: total });
      // The answer is the policy as GET /client/policies/{id} answers it.
      expect((await h.call({ method: 'GET', url: `/api/v1/client/policies/${policy.id}`, token })).json().data).toEqual(policy);
      const history = await h.db.selectFrom('policy_state_changes').select(['from_state', 'to_state']).where('policy_id', '=', policy.id).execute();
      expect(history).toEqual([{ from_state: null, to_state: 'PROCESSING' }]);
    }
    const stored = await h.db.selectFrom('invoices').select(['policy_id', 'amount']).where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ policy_id: null, amount: total.toFixed(2) });

    const after = await footprint();
    expect(after).toMatchObject({ policies: before.policies + 2, invoices: before.invoices + 1, invoiceItems: before.invoiceItems + 2, notifications: before.notifications + 1, cart: 0 });
    const note = await h.db.selectFrom('notifications').select(['title', 'body', 'entity']).where('client_id', '=', clientId)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(note).toEqual({
      title: `Policies ${policies[0].policyNo}, ${policies[1].policyNo} created`,
      body: `Your cart checkout created 2 policies (${policies[0].policyNo}, ${policies[1].policyNo}); invoice ${invoice.invoiceNo} bills GHS ${total.toFixed(2)}. Pay it to activate them.`,
      entity: { name: 'invoice', id: invoice.id },
    });
    expect((await get(home.id)).statusCode).toBe(404);
    expect((await checkout()).json()).toMatchObject({ statusCode: 409, code: 'CART_EMPTY', message: 'The cart is empty: add items with POST /client/cart first' });
  });

  it('writes nothing when an item is not a valid create body, and names the item and the field', async () => {
    const good = await added(homeItem());
    const bad = await added(homeItem({}, [house({ sumInsured: undefined })]));
    const before = await footprint();

    const res = await checkout();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: `cart[${bad.id}].assets[0].sumInsured is required` });
    // No policy, no invoice, no notification, no number spent, and the cart as it was.
    expect(await footprint()).toEqual(before);
    expect((await get(good.id)).json().data).toEqual(good);
    expect((await get(bad.id)).json().data).toEqual(bad);
  });

  it('writes nothing when a later item fails a rule the schema cannot check, or quotes another price', async () => {
    await added(homeItem());
    const old = await added(autoItem({}, [car({ yearOfMake: year + 1 })]));
    const before = await footprint();
    const res = await checkout();
    expect(res.json()).toMatchObject({ statusCode: 400, message: `cart[${old.id}].assets[0].yearOfMake must not be later than ${year}` });
    expect(await footprint()).toEqual(before);

    await patch(old.id, { assets: [car()], premium: 100 });
    const mismatch = await checkout();
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toMatchObject({ code: 'PREMIUM_MISMATCH', message: expect.stringMatching(new RegExp(`^cart\\[${old.id}\\]\\.premium must be \\d+\\.\\d{2} GHS`)) });
    expect(await footprint()).toEqual(before);
  });

  it('refuses items in different currencies (one invoice has one currency) and checks out the ones named in itemIds', async () => {
    const cedis = await added(homeItem());
    const dollars = await added(homeItem({ currency: 'USD', exchangeRate: 12.5 }));
    const before = await footprint();
    const res = await checkout();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'MIXED_CURRENCIES',
      message: `cart[${dollars.id}] is in USD at 12.5, cart[${cedis.id}] in GHS at 1: one invoice has one currency and exchange rate, so check them out separately (itemIds)`,
    });
    expect(await footprint()).toEqual(before);

    const some = await checkout({ itemIds: [dollars.id, dollars.id] });
    expect(some.statusCode).toBe(201);
    const { policies, invoice } = some.json().data;
    expect(policies).toHaveLength(1);
    expect(invoice).toMatchObject({ currency: 'USD', exchangeRate: 12.5, amount: 1125, convertedAmount: 14062.5, description: `Premium for policy ${policies[0].policyNo}` });
    // A one-policy invoice names its policy, as a policy's own invoice does.
    expect((await h.db.selectFrom('invoices').select('policy_id').where('id', '=', invoice.id).executeTakeFirstOrThrow()).policy_id).toBe(policies[0].id);
    expect((await list()).json().data.map((i: { id: string }) => i.id)).toEqual([cedis.id]);
  });

  it("answers 404 for itemIds naming another client's or tenant's item, or one not in the cart, and writes nothing", async () => {
    const mine = await added(homeItem());
    const theirs = await added(homeItem(), otherToken);
    const foreign = await foreignItem();
    const before = await footprint();

    for (const itemIds of [[theirs.id], [mine.id, theirs.id], [foreign], ['00000000-0000-4000-8000-000000000000']]) {
      const res = await checkout({ itemIds });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: `Cart item ${itemIds[itemIds.length - 1]} not found` });
    }
    // Tenant 2's client naming tenant 1's item.
    expect((await checkout({ itemIds: [mine.id] }, foreignToken, h.otherApiKey)).statusCode).toBe(404);
    expect(await footprint()).toEqual(before);
    expect((await get(mine.id)).json().data).toEqual(mine);
    expect((await get(theirs.id, otherToken)).json().data).toEqual(theirs);
    expect(await h.db.selectFrom('cart_items').select('id').where('id', '=', foreign).execute()).toHaveLength(1);
    await clear(otherToken);
  });

  it('answers 409 for an empty cart and 400 for an empty itemIds list', async () => {
    expect((await checkout()).json()).toMatchObject({ statusCode: 409, code: 'CART_EMPTY' });
    expect((await checkout({})).statusCode).toBe(409);
    const empty = await checkout({ itemIds: [] });
    expect(empty.json()).toMatchObject({ statusCode: 400, message: 'body.itemIds must NOT have fewer than 1 items' });
  });

  it('checks a cart out once when two checkouts race', async () => {
    await added(homeItem());
    await added(autoItem());
    const before = await footprint();
    const answers = await Promise.all([checkout(), checkout()]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(await footprint()).toMatchObject({ policies: before.policies + 2, invoices: before.invoices + 1, cart: 0 });
  });
});

describe('closing the account', () => {
  it('empties its cart', async () => {
    const body = individualBody();
    const leaving = await signUp(h, body);
    await added(homeItem(), leaving.token);
    const res = await h.call({ method: 'DELETE', url: '/api/v1/client/account', token: leaving.token, payload: { password: body.password, passwordConfirm: body.password } });
    expect(res.statusCode).toBe(200);
    expect(await h.db.selectFrom('cart_items').select('id').where('client_id', '=', leaving.account.id).execute()).toEqual([]);
  });
});
