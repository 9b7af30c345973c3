import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { daysSinceAnchor, examplesAnchorDate, shiftDatesInText } from '../../server/platform/example-dates.js';
import { documentForReaders, publishedDocument } from '../../server/platform/openapi.js';
import { activePolicy, backdate, homePolicy, serverDay } from '../helpers/claims.js';
import { onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, multipart, PDF } from '../helpers/multipart.js';
import { staffSession } from '../helpers/staff.js';

/**
 * The examples as a reader sees them today (the served contract, the docs site: their dates moved
 * from the anchor day to today) sent as an integrator would send them, on the real clock: the
 * date-bearing requests are taken, none refused for its dates. Ids the examples name (a policy,
 * an asset, a document) are swapped for the caller's own, as an integrator's would be; the dates
 * are sent as the example has them.
 */
type Json = Record<string, any>;

let h: Harness;
let token: string;
let doc: Json;
let homeProductId: string;

beforeAll(async () => {
  h = await createHarness({ dataDir: mkdtempSync(path.join(tmpdir(), 'coverline-example-dates-')) });
  doc = documentForReaders(h.clock.now());
  token = (await signUp(h)).token;
  homeProductId = await onlineProductId(h, 'HOME');
}, 300_000);
afterAll(async () => { await h.close(); });

const resolve = (node: Json): Json => (node?.$ref ? resolve(node.$ref.split('/').slice(1).reduce((at: Json, key: string) => at[key.replace(/~1/g, '/')], doc)) : node);
const operations = () => Object.entries(doc.paths as Json).flatMap(([route, item]) =>
  Object.entries(item as Json).filter(([, op]) => typeof op?.operationId === 'string').map(([method, op]) => ({ route, method, op: op as Json })));
const operation = (operationId: string) => operations().find(({ op }) => op.operationId === operationId)!;
/** The named request examples of an operation, as readers see them today. */
const requestExamples = (operationId: string): Record<string, Json> => Object.fromEntries(
  Object.entries(resolve(operation(operationId).op.requestBody).content['application/json'].examples as Json)
    .map(([name, example]) => [name, structuredClone(resolve(example as Json).value)]));
const send = (operationId: string, payload: Json, url = `/api/v1${operation(operationId).route}`, as = token) =>
  h.call({ method: operation(operationId).method.toUpperCase() as 'POST' | 'PUT' | 'PATCH', url, token: as, payload });
/** The answer's status, with its body when it is not the one expected (so a failure says why). */
const outcome = (res: { statusCode: number; json(): any }, expected: number) =>
  ({ status: res.statusCode, body: res.statusCode === expected ? null : res.json() });

async function uploadPdf(): Promise<string> {
  const { payload, headers } = multipart([file('sale-letter.pdf', PDF, 'application/pdf')]);
  const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token });
  expect(res.statusCode).toBe(201);
  return res.json().data[0].id;
}

describe('getOpenApiDocument: GET /openapi.json', () => {
  it('shows the examples dated from today: each date moved by the days since the anchor day, the rest as committed', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/openapi.json', apiKey: null });
    expect(res.statusCode).toBe(200);
    const served = res.json();
    const committed: Json = publishedDocument();
    const days = daysSinceAnchor(examplesAnchorDate(committed), h.clock.now());
    const claimExample = (d: Json) => d.paths['/client/claims'].post.requestBody.content['application/json'].examples['motor-accident'].value;
    expect(claimExample(served).dateOfLoss).toBe(shiftDatesInText(claimExample(committed).dateOfLoss, days));
    expect(claimExample(served).dateOfLoss < serverDay(h)).toBe(true);
    expect(served.info).toEqual(committed.info);
    expect(served.components.schemas).toEqual(doc.components.schemas);
    expect(served).toEqual(doc);
  });
});

describe('policy creates and quotes', () => {
  const creates = () => operations().filter(({ route, method, op }) =>
    method === 'post' && (/^\/client\/(policies|quotes)(\/[a-z-]+)?$/.test(route)) && /^create\w*(Policy|Quote)$/.test(op.operationId));

  it('covers createPolicy, the 23 typed creates and the 10 quotes', () => {
    expect(creates().map(({ op }) => op.operationId)).toEqual(expect.arrayContaining(['createPolicy', 'createAutoPolicy', 'createAutoQuote']));
    expect(creates()).toHaveLength(34);
  });

  it('creates or prices each request example, its cover starting in the future as the example says', async () => {
    for (const { op } of creates()) {
      for (const [name, example] of Object.entries(requestExamples(op.operationId))) {
        const expected = op.operationId.endsWith('Quote') ? 200 : 201;
        const res = await send(op.operationId, example);
        expect({ example: `${op.operationId} ${name}`, ...outcome(res, expected) }).toEqual({ example: `${op.operationId} ${name}`, status: expected, body: null });
        expect(example.startDate > serverDay(h)).toBe(true);
        if (expected === 201) expect(res.json().data).toMatchObject({ startDate: example.startDate, endDate: example.endDate });
      }
    }
  });

  it('puts each cart example in the cart', async () => {
    for (const [name, example] of Object.entries(requestExamples('addCartItem'))) {
      expect({ name, ...outcome(await send('addCartItem', example), 201) }).toEqual({ name, status: 201, body: null });
    }
  });
});

describe('staff sales', () => {
  it('quotes and creates each example policy for a client, as an executive', async () => {
    const staff = await staffSession(h, 'exec');
    const client = await signUp(h);
    const { id: clientId } = await h.db.selectFrom('clients').select('id').where('email', '=', client.body.email as string).executeTakeFirstOrThrow();
    for (const [operationId, expected] of [['quotePolicyForClient', 200], ['createPolicyForClient', 201]] as const) {
      for (const [name, example] of Object.entries(requestExamples(operationId))) {
        const url = `/api/v1${operation(operationId).route.replace('{id}', clientId)}`;
        const res = await send(operationId, example, url, staff.token);
        expect({ example: `${operationId} ${name}`, ...outcome(res, expected) }).toEqual({ example: `${operationId} ${name}`, status: expected, body: null });
      }
    }
  });
});

describe('direct debits', () => {
  it('sets up each example mandate on a policy created from the auto policy example', async () => {
    for (const [name, example] of Object.entries(requestExamples('createDirectDebit'))) {
      const policy = await send('createAutoPolicy', requestExamples('createAutoPolicy')['new-business']);
      expect(policy.statusCode).toBe(201);
      const res = await send('createDirectDebit', { ...example, policyId: policy.json().data.id });
      expect({ name, ...outcome(res, 201) }).toEqual({ name, status: 201, body: null });
      expect(res.json().data).toMatchObject({ startDate: example.startDate });
    }
  });
});

describe('claims', () => {
  it('files each standard claim example on a policy whose cover began when the examples\' policy\'s did', async () => {
    // The claim's answer example names the policy claimed on, with its cover: the loss falls inside it.
    const answered = resolve(operation('createClaim').op.responses['201']).content['application/json'].examples.created.value.data;
    const examples = requestExamples('createClaim');
    const standard = Object.entries(examples).filter(([, example]) => example.dateOfLoss !== undefined);
    expect(standard.map(([name]) => name)).toEqual(['motor-accident', 'baggage']);
    for (const [name, example] of standard) {
      const policy = await activePolicy(h, token, homeProductId);
      const daysCovered = Math.round((Date.parse(serverDay(h)) - Date.parse(answered.policy.startDate)) / 86_400_000);
      await backdate(h, { id: policy.id, policyNo: policy.policyNo, assets: policy.assetIds.map((id) => ({ id })) }, daysCovered);
      expect(example.dateOfLoss < serverDay(h)).toBe(true);
      const body = { ...example, policyId: policy.id, assets: [policy.assetIds[0]], ...(example.documentIds ? { documentIds: [await uploadPdf()] } : {}) };
      const res = await send('createClaim', body);
      expect({ name, ...outcome(res, 201) }).toEqual({ name, status: 201, body: null });
      expect(res.json().data).toMatchObject({ dateOfLoss: example.dateOfLoss, dateOfNotification: example.dateOfNotification ?? serverDay(h) });
    }
  });
});

describe('policy closures', () => {
  it('takes the example closure request, and the example change to it, on an active policy', async () => {
    const policy = await activePolicy(h, token, homeProductId);
    const request = requestExamples('requestPolicyClosure')['vehicle-sold'];
    expect(request.effectiveDate > serverDay(h)).toBe(true);
    const res = await send('requestPolicyClosure', { ...request, policyId: policy.id, documentIds: [await uploadPdf()] });
    expect(outcome(res, 201)).toEqual({ status: 201, body: null });
    expect(res.json().data).toMatchObject({ effectiveDate: request.effectiveDate });

    const change = requestExamples('updatePolicyClosure').later;
    const changed = await send('updatePolicyClosure', { ...change, documentIds: [await uploadPdf()] }, `/api/v1/client/policies/closure/${res.json().data.id}`);
    expect(outcome(changed, 200)).toEqual({ status: 200, body: null });
    expect(changed.json().data).toMatchObject({ effectiveDate: change.effectiveDate });
  });

  it('moves an unpaid policy to the example\'s new dates', async () => {
    const policy = await homePolicy(h, token, homeProductId);
    const change = requestExamples('updatePolicy')['new-dates'];
    const res = await send('updatePolicy', change, `/api/v1/client/policies/${policy.id}`);
    expect(outcome(res, 200)).toEqual({ status: 200, body: null });
    expect(res.json().data).toMatchObject(change);
  });
});
