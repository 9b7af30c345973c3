import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { createHarness, EXAMPLES_DAY, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { QUOTE_KINDS } from '../helpers/doc-pages.js';

/**
 * Every quote call (`POST /client/quotes/{kind}`), read from the contract with the example its page
 * shows: the quote prices the body as creating the policy then does, writes nothing, and refuses
 * what creating it would refuse. `h.call` checks every answer against the contract.
 */
type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const resolve = (node: Json): Json => (node.$ref ? resolve(node.$ref.split('/').slice(1).reduce((at: Json, key: string) => at[key], doc)) : node);
const bodyOf = (item: Json): Json => item.post.requestBody.content['application/json'];

// The typed create call taking the same body schema, if the kind has one; else the generic create.
const typedCreates = new Map(Object.entries(doc.paths as Json)
  .filter(([path, item]) => /^\/client\/policies\/[a-z-]+$/.test(path) && /^create\w+Policy$/.test(item.post?.operationId ?? ''))
  .map(([path, item]) => [bodyOf(item).schema.$ref as string, path]));
const kinds = Object.entries(doc.paths as Json)
  .filter(([path]) => path.startsWith('/client/quotes/'))
  .map(([path, item]) => {
    const media = bodyOf(item);
    return {
      path, operationId: item.post.operationId as string, slug: item.post['x-doc-slug'] as string,
      example: Object.values(media.examples as Json)[0].value as Json,
      assetRequired: (resolve(resolve(media.schema).properties.assets.items).required ?? []) as string[],
      createPath: typedCreates.get(media.schema.$ref) ?? '/client/policies',
    };
  });

/**
 * Each example's premium, worked by hand from the sandbox products' `premiumRates`
 * (server/platform/db/data/sandbox-products.json) and the rating rules (server/domain/rating): every
 * example covers 2026-12-01 to 2027-11-30, 365 days, one full annual premium, above the minimum.
 */
const QUOTED: Record<string, { premium: string; assets: string[] }> = {
  // Motor, private comprehensive: third-party basic 450.00 + own damage 85 000 x 5% = 4 250.00
  // + 1 800 cc loading 5% = 212.50 + age (2026 - 2019 = 7 years) loading 5% = 212.50
  // - no-claim discount (2 years, private) 30% of 4 675.00 = 1 402.50: 3 722.50
  createAutoQuote: { premium: '3722.50', assets: ['3722.50'] },
  createBurglaryQuote: { premium: '420.00', assets: ['420.00'] }, // 120 000 x 0.35%
  createContractorsAllRisksQuote: { premium: '20000.00', assets: ['20000.00'] }, // contract sum 4 000 000 x 0.5%
  createErectionAllRisksQuote: { premium: '12500.00', assets: ['12500.00'] }, // 2 500 000 x 0.5%
  createGoodsInTransitQuote: { premium: '1250.00', assets: ['1250.00'] }, // 250 000 x 0.5%
  // Group personal accident rates each member's permanent disability benefit: 120 000 x 0.5% = 600.00
  // and 60 000 x 0.5% = 300.00, together 900.00.
  createGroupPersonalAccidentQuote: { premium: '900.00', assets: ['600.00', '300.00'] },
  createHomeQuote: { premium: '1125.00', assets: ['1125.00'] }, // 450 000 x 0.25%
  createMarineCargoQuote: { premium: '750.00', assets: ['750.00'] }, // 250 000 x 0.3%
  createProfessionalIndemnityQuote: { premium: '2500.00', assets: ['2500.00'] }, // 500 000 x 0.5%
  createPublicLiabilityQuote: { premium: '2500.00', assets: ['2500.00'] }, // 500 000 x 0.5%
};

const TABLES = ['policies', 'policy_assets', 'policy_state_changes', 'invoices', 'invoice_items', 'notifications', 'outbox'] as const;

let h: Harness;
let token: string;
let otherToken: string;
beforeAll(async () => {
  h = await createHarness();
  h.clock.set(EXAMPLES_DAY); // the examples' cover starts after it
  token = (await signUp(h)).token;
  otherToken = (await signUp(h, individualBody())).token;
  await h.db.updateTable('currencies').set({ status: 'INACTIVE' }).where('code', '=', 'XOF').execute();
});
afterAll(async () => { await h.close(); });

/** `as` null sends no token. */
const post = (path: string, payload: object, as: string | null = token) => h.call({ method: 'POST', url: `/api/v1${path}`, token: as ?? undefined, payload });
/** Rows in every table a policy create writes to. */
const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (table) =>
  [table, Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)])));
const sum = (amounts: number[]) => amounts.reduce((total, amount) => total.plus(amount), new Decimal(0));

it('has a quote call for each of the 10 quote pages the docs list, each with its premium worked by hand', () => {
  expect(kinds.map((kind) => kind.slug.replace('policy-quotes/Get-quote/', '')).sort()).toEqual([...QUOTE_KINDS].sort());
  expect(kinds.map((kind) => kind.operationId).sort()).toEqual(Object.keys(QUOTED).sort());
});

describe.each(kinds.map((kind) => [kind.operationId, kind] as const))('%s', (_id, kind) => {
  it('quotes its example without writing anything, at the price creating the policy with the same body then charges', async () => {
    const before = await counts();
    const askedAt = h.clock.now().getTime();
    const res = await post(kind.path, kind.example);
    const answeredAt = h.clock.now().getTime();
    expect(res.statusCode).toBe(200);
    const quote = res.json().data;
    expect(quote).toMatchObject({
      policyType: kind.example.policyType, currency: 'GHS', exchangeRate: 1, startDate: kind.example.startDate, endDate: kind.example.endDate,
      termDays: 365, product: { id: kind.example.productId, category: kind.example.policyType },
    });
    expect(Date.parse(quote.quotedAt)).toBeGreaterThanOrEqual(askedAt);
    expect(Date.parse(quote.quotedAt)).toBeLessThanOrEqual(answeredAt);
    expect({ premium: quote.premium.toFixed(2), assets: quote.assets.map((asset: Json) => asset.premium.toFixed(2)) }).toEqual(QUOTED[kind.operationId]);
    expect(quote.convertedPremium).toBe(quote.premium);
    expect(quote.assets.map((asset: Json) => asset.position)).toEqual(kind.example.assets.map((_: unknown, index: number) => index));
    // The figures add up: lines to the annual premium, that times the term (or the minimum) to the premium, the assets' shares to it.
    const breakdown = quote.premiumBreakdown;
    expect(sum(breakdown.lines.map((line: Json) => line.amount)).toNumber()).toBe(breakdown.annualPremium);
    expect(Decimal.max(breakdown.minimumPremium, new Decimal(breakdown.annualPremium).mul(breakdown.termFactor).toDecimalPlaces(2)).toNumber()).toBe(quote.premium);
    expect(breakdown.premium).toBe(quote.premium);
    expect(sum(quote.assets.map((asset: Json) => asset.premium)).toNumber()).toBe(quote.premium);
    // Safe to repeat: the same price again, and still nothing written.
    expect((await post(kind.path, kind.example)).json().data.premium).toBe(quote.premium);
    expect(await counts()).toEqual(before);

    // The policy created with the same body, quoting the price, costs exactly that.
    const created = await post(kind.createPath, { ...kind.example, premium: quote.premium });
    expect(created.statusCode).toBe(201);
    const policy = created.json().data;
    expect(policy.premium).toBe(quote.premium);
    expect(policy.premiumBreakdown).toEqual(quote.premiumBreakdown);
    expect(policy.sumInsured).toBe(quote.sumInsured);
    expect(policy.assets.map((asset: Json) => asset.premium)).toEqual(quote.assets.map((asset: Json) => asset.premium));
  });

  it('refuses the example without a required field, naming it (400)', async () => {
    const { startDate: _dropped, ...withoutStart } = kind.example;
    expect((await post(kind.path, withoutStart)).json()).toMatchObject({ statusCode: 400, message: 'body.startDate is required' });
    for (const field of kind.assetRequired) {
      const { [field]: _field, ...asset } = kind.example.assets[0];
      const res = await post(kind.path, { ...kind.example, assets: [asset, ...kind.example.assets.slice(1)] });
      expect({ field, status: res.statusCode, message: res.json().message }).toEqual({ field, status: 400, message: `body.assets[0].${field} is required` });
    }
  });

  it('refuses a premium that is not the price, giving the price (422)', async () => {
    const price = new Decimal((await post(kind.path, kind.example)).json().data.premium);
    const res = await post(kind.path, { ...kind.example, premium: price.plus(1).toNumber() });
    expect(res.json()).toEqual({
      statusCode: 422, requestId: expect.any(String), error: 'Unprocessable Entity', code: 'PREMIUM_MISMATCH',
      message: `body.premium must be ${price.toFixed(2)} GHS, the price of this cover (leave premium out to accept it)`,
    });
  });

  it('refuses an unknown product, a product of another kind and an inactive currency (400)', async () => {
    const unknown = await post(kind.path, { ...kind.example, productId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json()).toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });
    const other = kinds.find((k) => k.example.policyType !== kind.example.policyType)!;
    const wrongKind = await post(kind.path, { ...kind.example, productId: other.example.productId });
    expect(wrongKind.json()).toMatchObject({ statusCode: 400, message: `body.productId: the product is for ${other.example.policyType} cover, not ${kind.example.policyType}` });
    const currency = await post(kind.path, { ...kind.example, currency: 'XOF' });
    expect(currency.json()).toMatchObject({ statusCode: 400, message: 'body.currency: XOF is not an ACTIVE currency (see GET /currencies)' });
  });

  it("answers 404 for another client's policy named as the one renewed, and 401 without a token", async () => {
    const theirs = (await post(kind.createPath, kind.example, otherToken)).json().data;
    const res = await post(kind.path, { ...kind.example, businessType: 'RENEWAL', oldPolicyId: theirs.id });
    expect(res.json()).toMatchObject({ statusCode: 404, message: 'Policy not found' });
    const anonymous = await post(kind.path, kind.example, null);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('quotes beyond the examples', () => {
  const auto = () => kinds.find((kind) => kind.operationId === 'createAutoQuote')!;

  it('refuses an OFFLINE product, which a client cannot buy (400)', async () => {
    const offline = await h.db.selectFrom('products').select('id').where('code', '=', 'AUTO-FLEET-OFFLINE').executeTakeFirstOrThrow();
    const res = await post(auto().path, { ...auto().example, productId: offline.id });
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });
  });

  it("answers another tenant's client as if this tenant's product and policies did not exist", async () => {
    const mine = (await post(auto().createPath, auto().example)).json().data;
    const foreign = (await signUp(h, individualBody(), h.otherApiKey)).token;
    const res = await h.call({ method: 'POST', url: `/api/v1${auto().path}`, token: foreign, apiKey: h.otherApiKey,
      payload: { ...auto().example, businessType: 'RENEWAL', oldPolicyId: mine.id } });
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'body.productId: no ACTIVE ONLINE product with this id is available' });
  });

  it('converts the premium to the base currency with decimals, as the policy does', async () => {
    const body = { ...auto().example, currency: 'USD', exchangeRate: 15.4321 };
    const quote = (await post(auto().path, body)).json().data;
    expect(quote).toMatchObject({ currency: 'USD', exchangeRate: 15.4321, premiumBreakdown: { currency: 'USD' } });
    // 3 722.50 USD x 15.4321 = 57 445.99225, to the cent 57 445.99
    expect({ premium: quote.premium.toFixed(2), convertedPremium: quote.convertedPremium.toFixed(2) }).toEqual({ premium: '3722.50', convertedPremium: '57445.99' });
    const policy = (await post(auto().createPath, body)).json().data;
    expect({ premium: policy.premium, convertedPremium: policy.convertedPremium }).toEqual({ premium: quote.premium, convertedPremium: quote.convertedPremium });
  });

  it("quotes a short term pro rata, or at the product's minimum", async () => {
    const quote = (await post(auto().path, { ...auto().example, endDate: '2026-12-31' })).json().data;
    expect(quote).toMatchObject({ termDays: 31, premiumBreakdown: { termDays: 31, termFactor: 0.084932 } });
    // 31 of 365 days: factor 31 / 365 = 0.0849315... = 0.084932 (6 places); 3 722.50 x 0.084932 = 316.159... = 316.16
    expect(quote.premium.toFixed(2)).toBe('316.16');
    const home = kinds.find((kind) => kind.operationId === 'createHomeQuote')!;
    const tiny = (await post(home.path, { ...home.example, endDate: '2026-12-01', assets: [{ ...home.example.assets[0], sumInsured: 1000 }] })).json().data;
    // 1 000 x 0.25% = 2.50 a year, x 1/365 = 0.01: under the HOME product's minimum premium of 200.00
    expect({ termDays: tiny.termDays, premium: tiny.premium.toFixed(2), minimum: tiny.premiumBreakdown.minimumPremium }).toEqual({ termDays: 1, premium: '200.00', minimum: 200 });
  });

  it("quotes the renewal of the client's own policy once; after the renewal is made, 409", async () => {
    const old = (await post(auto().createPath, auto().example)).json().data;
    const renewal = { ...auto().example, businessType: 'RENEWAL', oldPolicyId: old.id };
    const quote = await post(auto().path, renewal);
    expect(quote.statusCode).toBe(200);
    const renewed = (await post(auto().createPath, renewal)).json().data;
    expect(renewed.premium).toBe(quote.json().data.premium);
    expect((await post(auto().path, renewal)).json()).toMatchObject({
      statusCode: 409, code: 'ALREADY_RENEWED', message: `Policy ${old.policyNo} has already been renewed by ${renewed.policyNo}`,
    });
    const wrongType = kinds.find((kind) => kind.operationId === 'createHomeQuote')!;
    expect((await post(wrongType.path, { ...wrongType.example, businessType: 'RENEWAL', oldPolicyId: old.id })).json())
      .toMatchObject({ statusCode: 400, message: `body.oldPolicyId: policy ${old.policyNo} is AUTO cover, not HOME` });
  });

  it('is no create call: the policy types still name their create calls, the generic one where a type has no typed create', async () => {
    const types: Json[] = (await h.call({ method: 'GET', url: '/api/v1/client/policies/types', token })).json().data;
    expect(types.filter((type) => !/^\/client\/policies(\/[a-z-]+)?$/.test(type.createPath))).toEqual([]);
    const createOf = (policyType: string) => types.find((type) => type.policyType === policyType)!.createPath;
    expect([createOf('AUTO'), createOf('MARINE'), createOf('GOODS_IN_TRANSIT'), createOf('GROUP_PERSONAL_ACCIDENT')])
      .toEqual(['/client/policies/auto', '/client/policies/marine', '/client/policies', '/client/policies']);
  });

  it('refuses a client quoting for another client, and a policy number (400)', async () => {
    const other = await post(auto().path, { ...auto().example, clientId: '00000000-0000-4000-8000-000000000000' });
    expect(other.json()).toMatchObject({ statusCode: 400, message: 'body.clientId: a client can only create policies for itself' });
    expect((await post(auto().path, { ...auto().example, policyNo: 'POL-9999' })).json())
      .toMatchObject({ statusCode: 400, message: 'body.policyNo is assigned by the server; leave it out' });
  });
});
