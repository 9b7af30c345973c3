import { readFileSync } from 'node:fs';
import { createHarness, EXAMPLES_DAY, type Harness } from '../helpers/harness.js';
import { signUp } from '../helpers/clients.js';

/**
 * Every typed create call (`POST /client/policies/{kind}`), with the example its page shows: it
 * creates a policy of its type, priced by the server, and refuses the example with any one of its
 * asset's required fields left out, naming that field.
 */
type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const resolve = (node: Json): Json => (node.$ref ? resolve(node.$ref.split('/').slice(1).reduce((at: Json, key: string) => at[key], doc)) : node);
const kinds = Object.entries(doc.paths as Json)
  .filter(([path, item]) => /^\/client\/policies\/[a-z-]+$/.test(path) && /^create\w+Policy$/.test(item.post?.operationId ?? ''))
  .map(([path, item]) => {
    const media = item.post.requestBody.content['application/json'];
    const schema = resolve(media.schema);
    const assetSchema = resolve(schema.properties.assets.items);
    return { path, operationId: item.post.operationId as string, example: Object.values(media.examples as Json)[0].value as Json,
      required: (assetSchema.required ?? []) as string[] };
  });

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  h.clock.set(EXAMPLES_DAY); // the examples' cover starts after it
  token = (await signUp(h)).token;
});
afterAll(async () => { await h.close(); });

it('has a typed create call for each of the 23 kinds the docs list', () => {
  expect(kinds).toHaveLength(23);
});

describe.each(kinds.map((kind) => [kind.operationId, kind] as const))('%s', (_id, kind) => {
  it('creates its example policy, priced and invoiced by the server', async () => {
    const res = await h.call({ method: 'POST', url: `/api/v1${kind.path}`, token, payload: kind.example });
    expect(res.statusCode).toBe(201);
    const policy = res.json().data;
    expect(policy).toMatchObject({ policyType: kind.example.policyType, state: 'PROCESSING', businessType: 'NEW_BUSINESS' });
    expect(policy.premium).toBeGreaterThan(0);
    expect(policy.invoice.amount).toBe(policy.premium);
    expect(policy.assets).toHaveLength(kind.example.assets.length);
    expect(policy.assets[0].premium).toBe(policy.premium);
  });

  it('refuses the example without each required asset field, naming it', async () => {
    for (const field of kind.required) {
      const { [field]: _dropped, ...asset } = kind.example.assets[0];
      const res = await h.call({ method: 'POST', url: `/api/v1${kind.path}`, token, payload: { ...kind.example, assets: [asset] } });
      expect({ field, status: res.statusCode, message: res.json().message }).toEqual({ field, status: 400, message: `body.assets[0].${field} is required` });
    }
  });

  it('refuses a negative amount and an unknown asset property', async () => {
    const asset = kind.example.assets[0];
    const money = ['sumInsured', 'contractSum', 'deathBenefit', 'bondAmount'].find((field) => typeof asset[field] === 'number')!;
    const negative = await h.call({ method: 'POST', url: `/api/v1${kind.path}`, token, payload: { ...kind.example, assets: [{ ...asset, [money]: -1 }] } });
    expect(negative.json()).toMatchObject({ statusCode: 400, message: `body.assets[0].${money} must be >= 0` });
    const unknown = await h.call({ method: 'POST', url: `/api/v1${kind.path}`, token, payload: { ...kind.example, assets: [{ ...asset, colourOfSky: 'blue' }] } });
    expect(unknown.json()).toMatchObject({ statusCode: 400, message: "body.assets[0] has an unknown property 'colourOfSky'" });
  });
});
