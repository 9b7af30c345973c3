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

/**
 * Each example's premium, worked by hand from the sandbox products' `premiumRates`
 * (server/platform/db/data/sandbox-products.json) and the rating rules (server/domain/rating): every
 * example covers 2026-12-01 to 2027-11-30, 365 days, so one full annual premium; none falls under
 * its product's minimum. A basis times the product's `rate` percent, or the motor tariff for AUTO.
 */
const PREMIUMS: Record<string, string> = {
  // Motor, private comprehensive: third-party basic 450.00; own damage 85 000 x 5% = 4 250.00;
  // 1 800 cc loading 5% of 4 250 = 212.50; age 2026 - 2019 = 7 years, loading 5% = 212.50;
  // no-claim discount for 2 years (private) 30% of (4 250 + 212.50 + 212.50) = -1 402.50.
  // 450 + 4 250 + 212.50 + 212.50 - 1 402.50 = 3 722.50
  createAutoPolicy: '3722.50',
  createHomePolicy: '1125.00', // 450 000 sum insured x 0.25% (HOME)
  createBurglaryPolicy: '420.00', // 120 000 x 0.35% (BURGLARY)
  createMarinePolicy: '750.00', // 250 000 x 0.3% (MARINE)
  createLifePolicy: '800.00', // death benefit 100 000 x 0.8% (LIFE rates the death benefit)
  createFireAndAlliedPerilsPolicy: '4500.00', // 900 000 x 0.5%
  createAssetsAllRisksPolicy: '300.00', // 60 000 x 0.5%
  createErectionAllRisksPolicy: '12500.00', // 2 500 000 x 0.5%
  createContractorsAllRisksPolicy: '20000.00', // contract sum 4 000 000 x 0.5% (CAR rates the contract sum, not machinery)
  createFidelityGuaranteePolicy: '1000.00', // 200 000 x 0.5%
  createElectronicEquipmentPolicy: '750.00', // 150 000 x 0.5%
  createCashInSafePolicy: '250.00', // 50 000 x 0.5% (MONEY product)
  createCashInTransitPolicy: '400.00', // 80 000 x 0.5% (MONEY product)
  createHoldUpPolicy: '150.00', // 30 000 x 0.5% (MONEY product), above the minimum of 100
  createGeneralLiabilityPolicy: '5000.00', // 1 000 000 x 0.5%
  createDirectorsOfficersLiabilityPolicy: '10000.00', // 2 000 000 x 0.5%
  createAdvancePaymentBondPolicy: '1500.00', // bond amount 300 000 x 0.5% (BONDS rate the bond amount)
  createPlantAndMachineryPolicy: '3750.00', // 750 000 x 0.5%
  createBoilerOrPressureVesselPolicy: '2000.00', // 400 000 x 0.5%
  createBlanketBondPolicy: '5000.00', // 1 000 000 x 0.5%
  createBankersIndemnityPolicy: '25000.00', // 5 000 000 x 0.5%
  createProfessionalIndemnityPolicy: '2500.00', // 500 000 x 0.5%
  createPublicLiabilityPolicy: '2500.00', // 500 000 x 0.5%
};

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  h.clock.set(EXAMPLES_DAY); // the examples' cover starts after it
  token = (await signUp(h)).token;
});
afterAll(async () => { await h.close(); });

it('has a typed create call for each of the 23 kinds the docs list, each with its premium worked by hand', () => {
  expect(kinds).toHaveLength(23);
  expect(kinds.map((kind) => kind.operationId).sort()).toEqual(Object.keys(PREMIUMS).sort());
});

describe.each(kinds.map((kind) => [kind.operationId, kind] as const))('%s', (_id, kind) => {
  it('creates its example policy, priced and invoiced by the server', async () => {
    const res = await h.call({ method: 'POST', url: `/api/v1${kind.path}`, token, payload: kind.example });
    expect(res.statusCode).toBe(201);
    const policy = res.json().data;
    expect(policy).toMatchObject({ policyType: kind.example.policyType, state: 'PROCESSING', businessType: 'NEW_BUSINESS' });
    expect(policy.premium.toFixed(2)).toBe(PREMIUMS[kind.operationId]);
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
