import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { jobHandlers } from '../../server/app/jobs.js';
import { raiseDueDebits } from '../../server/domain/money/due-debits.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';
import { previousTakes, readEventTable } from '../../scripts/event-webhooks.js';
import { activePolicy, serverDay, standardClaim } from '../helpers/claims.js';
import { individualBody, onlineProductId, signUp, staffClientBody } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxDepartment, sandboxStaffTokens } from '../helpers/staff.js';
import { webhookReceiver, type Received } from '../helpers/webhook-receiver.js';

/**
 * Every event type of the catalogue (spec/events.yaml), driven through the API by one journey over
 * two companies (the sandbox broker, and an insurer that assigns it a product), each with a webhook
 * endpoint taking every type, delivered to a local receiver that verifies each with the Standard
 * Webhooks library. After each call, every delivery it caused is held against the contract:
 *
 * - `data.object` equals what the object's own GET (the catalogue's `get`, as that company's staff)
 *   answers right after the call: the object once everything the call set off is done (issue 41:
 *   a paid invoice's policies ACTIVE, a confirmed payment's receipt number set). An object the call
 *   removed (404 after it) holds what its GET answered right before, but for `data.previous`.
 * - `data.previous` takes one of the forms the catalogue's `previousKeys` lists, and each value in it
 *   is what the object's GET answered right before the call (where the object was seen then, and the
 *   call made one such change of that field).
 *
 * The journey must deliver every type the catalogue has: a new type that no call drives fails here.
 */

const root = path.resolve(import.meta.dirname, '../..');
const catalogue = readEventTable(root);
const TYPES = Object.keys(catalogue.events);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Company { name: string; apiKey: string; token: string; receiver: Awaited<ReturnType<typeof webhookReceiver>>; endpointId?: string }

let h: Harness;
let broker: Company;
let insurer: Company;
let tokens: Awaited<ReturnType<typeof sandboxStaffTokens>>;
let client: { token: string; id: string };
let productId: string;

const call = (as: Pick<Company, 'apiKey'> & { token: string }, method: Method, url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token: as.token, apiKey: as.apiKey, ...(payload && { payload }) });
const ok = async (as: Pick<Company, 'apiKey'> & { token: string }, method: Method, url: string, payload?: object) => {
  const res = await call(as, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? undefined : res.json().data;
};
const asBroker = (token: string) => ({ token, apiKey: h.apiKey });
const asClient = () => asBroker(client.token);

/** The object's own GET by id, as `company`'s staff (the catalogue's `get`; a mandate has only the client's). */
function getOf(objectType: string, id: string): { url: string; client?: true } {
  const get = catalogue.objects[objectType]?.get;
  if (!get) throw new Error(`no object ${objectType} in the catalogue`);
  const url = get.slice('GET '.length);
  if (/\{[^}]+\}/.test(url)) return { url: url.replace(/\{[^}]+\}/, id) };
  // A list: the object by id beside it (the client's mandates).
  if (objectType === 'directDebit' && url === '/client/direct-debits') return { url: `${url}/${id}`, client: true };
  throw new Error(`no GET by id for ${objectType} (${get}): teach this test how to read it`);
}

/** The object as `company` reads it now; null when it is not there (404). */
async function read(company: Company, objectType: string, id: string): Promise<Record<string, unknown> | null> {
  const { url, client: asOwner } = getOf(objectType, id);
  const res = await call(asOwner ? asClient() : { token: company.token, apiKey: company.apiKey }, 'GET', url);
  if (res.statusCode === 404) return null;
  expect(res.statusCode).toBe(200);
  const { history: _history, ...view } = res.json().data;
  return asOwner ? view : res.json().data;
}

/** What each company last read of each object it was told of, by `company object-type id`. */
const seen = new Map<string, Record<string, unknown> | null>();
const keyOf = (company: Company, objectType: string, id: string) => `${company.name} ${objectType} ${id}`;
const delivered = new Set<string>();

/** Runs the queue's webhook jobs as a worker of `npm start` would, until none is ready. */
async function deliverAll() {
  const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, batchSize: 50,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE] } });
  while (await worker.tick() > 0) { /* next batch */ }
}

/**
 * One call of the journey: every object either company was told of is read first, then `run`, then
 * its deliveries are checked against the objects read again. Answers `run`'s answer and the events.
 */
async function step<T>(name: string, run: () => Promise<T>): Promise<{ answer: T; events: Received['event'][] }> {
  for (const key of seen.keys()) {
    const [company, objectType, id] = key.split(' ');
    seen.set(key, await read(company === broker.name ? broker : insurer, objectType, id));
  }
  const before = new Map(seen);
  const answer = await run();
  await deliverAll();
  const events: Received['event'][] = [];
  for (const company of [broker, insurer]) {
    const got = company.receiver.received.splice(0);
    for (const delivery of got) {
      const { event } = delivery;
      const where = `${name}: ${company.name}'s ${event.type} about ${event.object.type} ${event.object.id}`;
      expect({ where, verifiedWith: delivery.verifiedWith }).toEqual({ where, verifiedWith: [0] });
      expect({ where, type: event.type, objectType: event.object.type }).toEqual({ where, type: event.type, objectType: event.type.split('.')[0] });
      const row = catalogue.events[event.type];
      expect({ where, inCatalogue: Boolean(row) }).toEqual({ where, inCatalogue: true });
      const previous = event.data.previous as Record<string, unknown> | null;
      expect({ where, previous, takesAFormOf: previousTakes(row.previousKeys, previous) }).toEqual({ where, previous, takesAFormOf: true });

      const key = keyOf(company, event.object.type, event.object.id);
      const now = await read(company, event.object.type, event.object.id);
      const was = before.get(key) ?? null;
      if (now) {
        expect({ where, object: event.data.object }).toEqual({ where, object: now });
      } else {
        // Removed by the call (or from this company's view): as last answered, but for what the change
        // changed (`previous`) and when (`updatedAt`, which `previous` never names).
        expect({ where, seenBefore: was !== null }).toEqual({ where, seenBefore: true });
        const updatedAt = 'updatedAt' in event.data.object ? { updatedAt: was?.updatedAt } : {};
        expect({ where, object: { ...event.data.object, ...previous, ...updatedAt } }).toEqual({ where, object: was });
      }
      if (previous) {
        const sameChanges = got.filter((other) => other.event.object.id === event.object.id && other.event.type === event.type
          && Object.keys(other.event.data.previous ?? {}).join() === Object.keys(previous).join());
        for (const [field, value] of Object.entries(previous)) {
          // A value before the change: not what it is now...
          expect({ where, field, changed: !isDeepStrictEqual(value, event.data.object[field]) }).toEqual({ where, field, changed: true });
          // ...but what its GET answered right before the call.
          if (was && sameChanges.length === 1) expect({ where, field, value }).toEqual({ where, field, value: was[field] ?? null });
        }
      }
      seen.set(key, now);
      delivered.add(event.type);
      events.push(event);
    }
  }
  return { answer, events };
}
/** Set-up of several calls (not one call, so not checked): run, delivered and put aside. */
async function setUp<T>(run: () => Promise<T>): Promise<T> {
  const answer = await run();
  await deliverAll();
  for (const company of [broker, insurer]) company.receiver.received.length = 0;
  return answer;
}
const typesOf = (events: Received['event'][]) => events.map((e) => e.type).sort();

beforeAll(async () => {
  h = await createHarness();
  tokens = await sandboxStaffTokens(h);
  productId = await onlineProductId(h, 'HOME');
  const member = await h.db.insertInto('staff').values({
    tenant_id: h.otherTenantId, email: 'exec@catalogue-insurer.example', first_name: 'Yaw', last_name: 'Boateng', type: 'NORMAL_STAFF', position: 'EXECUTIVE_MANAGER',
  }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
  const insurerToken = (await h.app.services.signStaffAccessToken({ tenantId: h.otherTenantId, staffId: member.id, sessionVersion: member.session_version })).token;
  broker = { name: 'broker', apiKey: h.apiKey, token: tokens.exec, receiver: await webhookReceiver() };
  insurer = { name: 'insurer', apiKey: h.otherApiKey, token: insurerToken, receiver: await webhookReceiver() };
  for (const company of [broker, insurer]) {
    // No event types named: every type, new ones included.
    const endpoint = await ok(company, 'POST', '/staff/webhook-endpoints', { url: company.receiver.url, description: 'Catalogue check' });
    company.receiver.trust(endpoint.secret);
    company.endpointId = endpoint.id;
  }
  const signed = await signUp(h, individualBody());
  client = { token: signed.token, id: signed.account.id };
  await deliverAll();
  for (const company of [broker, insurer]) company.receiver.received.length = 0;
}, 120_000);
afterAll(async () => { await broker?.receiver.close(); await insurer?.receiver.close(); await h?.close(); });

const homeBody = (extra: object = {}) => ({
  policyType: 'HOME', currency: 'GHS', startDate: serverDay(h, 0), endDate: serverDay(h, 364), productId, businessType: 'NEW_BUSINESS',
  assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }], ...extra,
});
const answerProvider = async (kind: 'checkout' | 'mobile-money', reference: string, outcome: string) => {
  const res = await h.call({ method: 'POST', url: `/api/v1/sandbox/${kind}/${reference}`, apiKey: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: `outcome=${outcome}` });
  expect(res.statusCode).toBe(303);
};
const referenceOf = async (transactionId: string) =>
  (await h.db.selectFrom('transactions').select('provider_reference').where('id', '=', transactionId).executeTakeFirstOrThrow()).provider_reference!;

describe('webhook deliveries of every catalogue type: holds its object as its GET answers right after the call and data.previous as the contract says', () => {
  it('people: clients signed up, changed, opened and deactivated by staff; staff members added and deactivated', async () => {
    const signed = await step('a client signs up', () => signUp(h, individualBody()));
    expect(typesOf(signed.events)).toEqual(['client.created']);
    const mine = { token: signed.answer.token, apiKey: h.apiKey };
    expect(typesOf((await step('the client changes its city', () => ok(mine, 'PATCH', '/client/account', { city: 'Kumasi' }))).events)).toEqual(['client.updated']);
    const opened = await step('staff open an account', () => ok(broker, 'POST', '/staff/clients', staffClientBody(individualBody())));
    expect(typesOf(opened.events)).toEqual(['client.created']);
    const stopped = await step('staff deactivate it', () => ok(broker, 'POST', `/staff/clients/${opened.answer.id}/deactivate`, { reason: 'Duplicate account' }));
    expect(typesOf(stopped.events)).toEqual(['client.deactivated']);

    const added = await step('a manager adds a member', () => ok(broker, 'POST', '/staff/members', {
      email: 'catalogue.member@broker.example', firstName: 'Esi', lastName: 'Addo', position: 'LEVEL_OFFICER',
      departmentId: sandboxDepartment('Retail Sales').id, password: 'Member-Pass-77' }));
    expect(typesOf(added.events)).toEqual(['staff.created']);
    expect(typesOf((await step('and deactivates them', () => ok(broker, 'POST', `/staff/members/${added.answer.id}/deactivate`))).events)).toEqual(['staff.deactivated']);
  });

  it('a policy bought, changed, paid in cash (approved: the paid invoice\'s policy ACTIVE, the payment\'s receipt numbered) and renewed; payments failed and rejected', async () => {
    const bought = await step('the client buys a policy', () => ok(asClient(), 'POST', '/client/policies', homeBody()));
    expect(typesOf(bought.events)).toEqual(['invoice.created', 'policy.created']);
    expect(typesOf((await step('the client changes its notes', () => ok(asClient(), 'PATCH', `/client/policies/${bought.answer.id}`, { notes: 'Gate code 4471' }))).events))
      .toEqual(['policy.updated']);
    const cash = await step('the client pays it in cash', () => ok(asClient(), 'POST', '/client/transactions',
      { invoiceId: bought.answer.invoice.id, paymentMethod: 'CASH', amount: bought.answer.invoice.amount }));
    expect(typesOf(cash.events)).toEqual(['transaction.created']);
    const approved = await step('a head of sales approves it', () => ok(asBroker(tokens.headSales), 'POST', `/staff/transactions/${cash.answer.id}/approve`, {}));
    expect(typesOf(approved.events)).toEqual(['invoice.paid', 'policy.stateChanged', 'transaction.approved']);
    // What issue 41 found wrong, named: each event says what the API answers after the call.
    const paid = approved.events.find((e) => e.type === 'invoice.paid')!;
    expect(paid.data).toMatchObject({ previous: { status: 'UNPAID' }, object: { status: 'FULLY_PAID', policy: { state: 'ACTIVE' }, policies: [{ state: 'ACTIVE' }] } });
    expect(approved.events.find((e) => e.type === 'transaction.approved')!.data.object.receiptNo).toMatch(/^RCT-\d+$/);

    const renewed = await step('the client renews it', () => ok(asClient(), 'POST', `/client/policies/${bought.answer.id}/renew`, {}));
    expect(typesOf(renewed.events)).toEqual(['invoice.created', 'policy.created', 'policy.renewed']);
    const invoiceId = renewed.answer.invoice.id;
    const online = await step('the client opens a checkout', () => ok(asClient(), 'POST', '/client/transactions', { invoiceId, paymentMethod: 'ONLINE', amount: 100 }));
    const failed = await step('the checkout fails at the provider', async () => answerProvider('checkout', await referenceOf(online.answer.id), 'fail'));
    expect(typesOf(failed.events)).toEqual(['transaction.failed']);
    const counter = await step('the client pays part in cash', () => ok(asClient(), 'POST', '/client/transactions', { invoiceId, paymentMethod: 'CASH', amount: 100 }));
    const rejected = await step('staff reject it', () => ok(asBroker(tokens.headSales), 'POST', `/staff/transactions/${counter.answer.id}/reject`, { reason: 'No cash was banked' }));
    expect(typesOf(rejected.events)).toEqual(['transaction.rejected']);
  });

  it('direct debits: set up, a debit collected (its invoice paid), a debit failed, a mandate cancelled', async () => {
    const debited = async (name: string, mobileNumber: string) => {
      const policy = (await step(`${name}: the policy bought`, () => ok(asClient(), 'POST', '/client/policies', homeBody()))).answer;
      const mandate = await step(`${name}: set up`, () => ok(asClient(), 'POST', '/client/direct-debits',
        { policyId: policy.id, startDate: serverDay(h, 0), frequency: 'MONTHLY', mobileNumber }));
      expect(typesOf(mandate.events)).toEqual(['directDebit.created', 'policy.stateChanged']);
      await step(`${name}: the job raises its debit`, async () => expect((await raiseDueDebits(h.app.services, h.clock.now())).failed).toEqual([]));
      const payment = await h.db.selectFrom('transactions').select('provider_reference').where('direct_debit_id', '=', mandate.answer.id).executeTakeFirstOrThrow();
      return { mandate: mandate.answer, reference: payment.provider_reference! };
    };
    const collected = await debited('a mandate', '0244123456');
    const collect = await step('its debit is approved on the phone', () => answerProvider('mobile-money', collected.reference, 'approve'));
    expect(typesOf(collect.events)).toEqual(['directDebit.collected', 'invoice.paid', 'policy.stateChanged', 'transaction.approved']);
    const failing = await debited('a mandate on a failing wallet', '0244120000');
    const fail = await step('its debit fails', () => answerProvider('mobile-money', failing.reference, 'approve'));
    expect(typesOf(fail.events)).toEqual(['directDebit.failed', 'transaction.failed']);
    const cancelled = await step('the client cancels it', () => ok(asClient(), 'POST', `/client/direct-debits/${failing.mandate.id}/cancel`, { reason: 'Changing my wallet' }));
    expect(typesOf(cancelled.events)).toEqual(['directDebit.cancelled']);
  });

  it('claims: filed, reviewed, moved, settled and closed in one call; one withdrawn (removed)', async () => {
    const policy = await setUp(() => activePolicy(h, client.token, productId));
    const filed = await step('the client files a claim', () => ok(asClient(), 'POST', '/client/claims', standardClaim(h, policy)));
    expect(typesOf(filed.events)).toEqual(['claim.filed']);
    expect(typesOf((await step('an officer reviews it', () => ok(asBroker(tokens.officer), 'POST', `/staff/claims/${filed.answer.id}/reviews`,
      { inspectionNotes: 'Floor damaged', adjustedSettlementAmount: 4200 }))).events)).toEqual(['claim.reviewed']);
    expect(typesOf((await step('the head of claims moves it to settlement', () => ok(asBroker(tokens.headClaims), 'POST', `/staff/claims/${filed.answer.id}/stage`,
      { stage: 'SETTLEMENT', notes: 'Assessment agreed' }))).events)).toEqual(['claim.stageChanged']);
    const settled = await step('and settles it', () => ok(asBroker(tokens.headClaims), 'POST', `/staff/claims/${filed.answer.id}/settlements`, {
      amount: 3900, recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'MOBILE_MONEY', paymentMethodInfo: 'MTN MoMo 0244123456' }));
    expect(typesOf(settled.events)).toEqual(['claim.closed', 'claim.settled', 'claim.stageChanged', 'claim.stageChanged']);

    const withdrawn = await step('the client files another', () => ok(asClient(), 'POST', '/client/claims', standardClaim(h, policy)));
    const gone = await step('and withdraws it', () => ok(asClient(), 'DELETE', `/client/claims/${withdrawn.answer.id}`));
    expect(gone.events.map((e) => [e.type, e.data.previous])).toEqual([['claim.closed', null]]);
  });

  it('closures: one approved (the policy cancelled, its pending payment rejected, its invoice closed), one rejected; an unpaid policy deleted (its invoice removed)', async () => {
    const policy = (await step('the client buys a policy', () => ok(asClient(), 'POST', '/client/policies', homeBody()))).answer;
    await step('and pays part in cash', () => ok(asClient(), 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: 100 }));
    const asked = await step('the client asks to close it', () => ok(asClient(), 'POST', '/client/policies/closure', { policyId: policy.id, reason: 'Sold the house' }));
    expect(typesOf(asked.events)).toEqual(['policyClosure.requested']);
    const approved = await step('the executive approves', () => ok(broker, 'POST', `/staff/policy-closures/${asked.answer.id}/approve`, {}));
    expect(typesOf(approved.events)).toEqual(['invoice.closed', 'policy.cancelled', 'policy.stateChanged', 'policyClosure.approved', 'transaction.rejected']);

    const other = (await step('the client buys another', () => ok(asClient(), 'POST', '/client/policies', homeBody()))).answer;
    const again = await step('the client asks to close another', () => ok(asClient(), 'POST', '/client/policies/closure', { policyId: other.id, reason: 'Moving abroad' }));
    expect(typesOf((await step('staff reject it', () => ok(broker, 'POST', `/staff/policy-closures/${again.answer.id}/reject`, { reason: 'Cover still needed' }))).events))
      .toEqual(['policyClosure.rejected']);

    const deletable = await step('the client buys a policy it will not pay', () => ok(asClient(), 'POST', '/client/policies', homeBody()));
    const deleted = await step('and deletes it', () => ok(asClient(), 'DELETE', `/client/policies/${deletable.answer.id}`));
    expect(deleted.events.map((e) => [e.type, e.data.previous])).toEqual([['invoice.closed', null]]);
  });

  it('products: created by the insurer, assigned to the broker and withdrawn, each in both companies with its own view; a test ping', async () => {
    const { premium_rates: premiumRates } = await h.db.selectFrom('products').select('premium_rates').where('code', '=', 'AUTO-ONLINE').executeTakeFirstOrThrow();
    const made = await step('the insurer creates a product', () => ok(insurer, 'POST', '/staff/products', { name: 'Fleet Cover', code: 'CATALOGUE-FLEET', category: 'AUTO', premiumRates }));
    expect(typesOf(made.events)).toEqual(['product.created']);
    const assigned = await step('and assigns it to the broker', () => ok(insurer, 'POST', `/staff/products/${made.answer.id}/assignments`, { companyId: h.tenantId }));
    expect(typesOf(assigned.events)).toEqual(['product.assigned', 'product.assigned']);
    const withdrawn = await step('and withdraws it', () => ok(insurer, 'DELETE', `/staff/products/${made.answer.id}/assignments/${h.tenantId}`));
    expect(typesOf(withdrawn.events)).toEqual(['product.unassigned', 'product.unassigned']);

    const ping = await step('the executive asks for a test delivery', () => ok(broker, 'POST', `/staff/webhook-endpoints/${broker.endpointId}/test`));
    expect(typesOf(ping.events)).toEqual(['webhookEndpoint.ping']);
  });

  it('delivered every type in the catalogue (a new type no call here drives fails this)', () => {
    expect(TYPES.filter((type) => !delivered.has(type))).toEqual([]);
    expect(TYPES.length).toBeGreaterThanOrEqual(33);
    // The catalogue's table is what the contract's webhooks are made from.
    expect(readFileSync(path.join(root, 'spec/events.yaml'), 'utf8')).toContain('previousKeys');
  });
});
