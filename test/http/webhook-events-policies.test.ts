import { jobHandlers } from '../../server/app/jobs.js';
import { runPolicyLifecycle } from '../../server/domain/policies/lifecycle-job.js';
import { movePolicy } from '../../server/domain/states/policy.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';
import { backdate, homePolicy, serverDay } from '../helpers/claims.js';
import { individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';
import { webhookReceiver, type Received } from '../helpers/webhook-receiver.js';

/**
 * The policy and closure events as an integrator receives them (issue 28): every path that writes
 * a policy, changes it, moves its state (payment, staff, the lifecycle job, a closure) or renews it,
 * and closure requests and rejections, delivered signed to a local receiver with the object as its
 * staff GET answers it, who did it and what changed; nothing for a refused or rolled-back change.
 */

const TYPES = ['policy.created', 'policy.updated', 'policy.stateChanged', 'policy.renewed', 'policy.cancelled',
  'policyClosure.requested', 'policyClosure.rejected'] as const;

let h: Harness;
let exec: string;
const execId = sandboxStaff('exec').id;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let productId: string;
let client: { id: string; token: string };

beforeAll(async () => {
  h = await createHarness();
  exec = (await staffSession(h, 'exec')).token;
  receiver = await webhookReceiver();
  productId = await onlineProductId(h, 'HOME');
  const signed = await signUp(h, individualBody());
  client = { id: signed.account.id, token: signed.token };
  const endpoint = await call(exec, 'POST', '/staff/webhook-endpoints', { url: receiver.url, description: 'Policy admin system', eventTypes: TYPES });
  expect(endpoint.statusCode).toBe(201);
  receiver.trust(endpoint.json().data.secret);
}, 120_000);
afterAll(async () => { await receiver.close(); await h.close(); });

const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }) });
const staffPolicy = async (id: string) => (await call(exec, 'GET', `/staff/policies/${id}`)).json().data;
const staffClosure = async (id: string) => (await call(exec, 'GET', `/staff/policy-closures/${id}`)).json().data;
const homeBody = (extra: Record<string, unknown> = {}) => ({
  policyType: 'HOME', currency: 'GHS', startDate: serverDay(h, 0), endDate: serverDay(h, 364), productId, businessType: 'NEW_BUSINESS',
  assets: [{ sumInsured: 300000, usage: 'PRIVATE', location: 'House No. 3, Ring Road Central, Accra' }], ...extra,
});
const expectStatus = (res: { statusCode: number; body: string }, status: number) => expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });

/** The events of these types recorded for the company so far (delivered or not). */
const recorded = async () => Number((await h.db.selectFrom('domain_events').select((eb) => eb.fn.countAll<string>().as('n'))
  .where('tenant_id', '=', h.tenantId).where('type', 'in', TYPES).executeTakeFirstOrThrow()).n);

/** Runs the webhook queue until nothing is ready, then answers the events received about `objectId` since the last call, each verified. */
async function delivered(objectId: string): Promise<Received['event'][]> {
  const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, batchSize: 50,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE] } });
  while (await worker.tick() > 0) { /* next batch */ }
  const mine = receiver.received.filter((r) => r.event.object.id === objectId);
  receiver.received.splice(0, receiver.received.length, ...receiver.received.filter((r) => r.event.object.id !== objectId));
  for (const got of mine) expect(got.verifiedWith).toEqual([0]);
  return mine.map((got) => got.event);
}
/** The one event of `type` among `events`. */
function only(events: Received['event'][], type: (typeof TYPES)[number]) {
  expect(events.filter((e) => e.type === type)).toHaveLength(1);
  return events.find((e) => e.type === type)!;
}
const types = (events: Received['event'][]) => events.map((e) => e.type).sort();

describe('policy.created and policy.renewed', () => {
  it('come from every path that writes a policy, once it is billed, with the policy as its staff GET answers it', async () => {
    // The client's own.
    const own = await homePolicy(h, client.token, productId);
    let events = await delivered(own.id);
    expect(types(events)).toEqual(['policy.created']);
    expect(events[0]).toMatchObject({ actor: { by: 'client', id: client.id }, object: { type: 'policy', id: own.id }, apiVersion: expect.any(String),
      data: { object: { state: 'PROCESSING', invoice: { id: own.invoice.id } }, previous: null } });
    expect(events[0].data.object).toEqual(await staffPolicy(own.id));

    // A cart checkout, by the client and by staff for it: on the checkout's invoice.
    for (const [checkout, actor] of [[() => call(client.token, 'POST', '/client/cart/checkout'), { by: 'client', id: client.id }],
      [() => call(exec, 'POST', `/staff/clients/${client.id}/cart/checkout`), { by: 'staff', id: execId }]] as const) {
      expectStatus(await call(client.token, 'POST', '/client/cart', homeBody()), 201);
      const bought = await checkout();
      expectStatus(bought, 201);
      const [policy] = bought.json().data.policies;
      events = await delivered(policy.id);
      expect(types(events)).toEqual(['policy.created']);
      expect(events[0]).toMatchObject({ actor, data: { object: { id: policy.id, invoice: { id: bought.json().data.invoice.id } }, previous: null } });
      expect(events[0].data.object).toEqual(await staffPolicy(policy.id));
    }

    // Sold by staff: credited to them.
    const sold = await call(exec, 'POST', `/staff/clients/${client.id}/policies`, homeBody({ generateInvoice: false }));
    expectStatus(sold, 201);
    events = await delivered(sold.json().data.id);
    expect(events).toMatchObject([{ type: 'policy.created', actor: { by: 'staff', id: execId },
      data: { object: { state: 'DRAFT', invoice: null, createdBy: { id: execId } }, previous: null } }]);
    expect(events[0].data.object).toEqual(await staffPolicy(sold.json().data.id));

    // Refused: an empty cart, a foreign product; nothing recorded.
    const before = await recorded();
    expectStatus(await call(client.token, 'POST', '/client/cart/checkout'), 409);
    expectStatus(await call(exec, 'POST', `/staff/clients/${client.id}/policies`, homeBody({ productId: '00000000-0000-4000-8000-000000000000' })), 400);
    expect(await recorded()).toBe(before);
  });
});

describe('policy.stateChanged, policy.renewed', () => {
  it('are recorded for every move: paid (system, with invoice.paid), renewed, staff, the lifecycle job; a refused or rolled-back move records none', async () => {
    const policy = await homePolicy(h, client.token, productId);
    await delivered(policy.id);
    const paid = await call(client.token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: policy.invoice.amount });
    expectStatus(await call(exec, 'POST', `/staff/transactions/${paid.json().data.id}/approve`, { notes: 'Counted' }), 200);
    let events = await delivered(policy.id);
    expect(events).toMatchObject([{ type: 'policy.stateChanged', actor: { by: 'system', id: null }, object: { type: 'policy', id: policy.id },
      data: { object: { state: 'ACTIVE', isPaid: true }, previous: { state: 'PROCESSING' } } }]);
    expect(events[0].data.object).toEqual(await staffPolicy(policy.id));
    // Recorded by the invoice.paid reaction, in its transaction.
    const rows = await h.db.selectFrom('domain_events').select(['type', 'created_at']).where('object_id', 'in', [policy.id, policy.invoice.id])
      .where('type', 'in', ['invoice.paid', 'policy.stateChanged']).execute();
    expect(rows.map((r) => r.type).sort()).toEqual(['invoice.paid', 'policy.stateChanged']);
    expect(rows[0].created_at).toEqual(rows[1].created_at);

    // Renewed by the client: the renewal is created and renews the old one.
    const renewal = (await call(client.token, 'POST', `/client/policies/${policy.id}/renew`, {})).json().data;
    events = await delivered(renewal.id);
    expect(types(events)).toEqual(['policy.created', 'policy.renewed']);
    expect(only(events, 'policy.renewed')).toMatchObject({ actor: { by: 'client', id: client.id }, object: { type: 'policy', id: renewal.id },
      data: { object: { id: renewal.id, businessType: 'RENEWAL', oldPolicyId: policy.id }, previous: null } });
    expect(only(events, 'policy.renewed').data.object).toEqual(await staffPolicy(renewal.id));
    let before = await recorded();
    expectStatus(await call(client.token, 'POST', `/client/policies/${policy.id}/renew`, {}), 409); // renewed already
    expect(await recorded()).toBe(before);

    // The lifecycle job expires it (system).
    await backdate(h, { ...policy, assets: policy.assets }, 400);
    await runPolicyLifecycle(h.app.services, h.clock.now(), 0);
    events = await delivered(policy.id);
    expect(events).toMatchObject([{ type: 'policy.stateChanged', actor: { by: 'system', id: null },
      data: { object: { state: 'EXPIRED' }, previous: { state: 'ACTIVE' } } }]);
    expect(events[0].data.object).toEqual(await staffPolicy(policy.id));

    // Staff move the renewal, still PROCESSING, to underwriting.
    expectStatus(await call(exec, 'POST', `/staff/policies/${renewal.id}/state`, { state: 'UNDER_WRITER', notes: 'Referred for the sum insured' }), 200);
    events = await delivered(renewal.id);
    expect(events).toMatchObject([{ type: 'policy.stateChanged', actor: { by: 'staff', id: execId },
      data: { object: { state: 'UNDER_WRITER' }, previous: { state: 'PROCESSING' } } }]);
    expect(events[0].data.object).toEqual(await staffPolicy(renewal.id));

    // Refused (409: not an edge from UNDER_WRITER) and rolled back: no event.
    before = await recorded();
    expectStatus(await call(exec, 'POST', `/staff/policies/${renewal.id}/state`, { state: 'ACTIVE', notes: 'Paid at the counter' }), 409);
    await expect(new TenantScope(h.db, h.tenantId).transaction(async (scope) => {
      await movePolicy(h.app.services, scope, { id: renewal.id, policyNo: renewal.policyNo, state: 'UNDER_WRITER' }, 'PROCESSING',
        { by: 'staff', id: execId }, h.clock.now(), 'Back to processing');
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await recorded()).toBe(before);
    expect((await staffPolicy(renewal.id)).state).toBe('UNDER_WRITER');
  });
});

describe('policy.updated', () => {
  it('holds the fields that changed, with their values before; nothing changed or refused records none; invoicing a draft is its state change', async () => {
    const policy = await homePolicy(h, client.token, productId);
    await delivered(policy.id);
    const patch = (body: object) => call(client.token, 'PATCH', `/client/policies/${policy.id}`, body);

    expectStatus(await patch({ notes: 'Gate code 4471' }), 200);
    let events = await delivered(policy.id);
    expect(events).toMatchObject([{ type: 'policy.updated', actor: { by: 'client', id: client.id },
      data: { object: { notes: 'Gate code 4471' }, previous: { notes: null } } }]);
    expect(events[0].data.previous).toEqual({ notes: null });
    expect(events[0].data.object).toEqual(await staffPolicy(policy.id));

    // A cover change: the term, and the premium and invoice that follow it.
    const endDate = serverDay(h, 180);
    expectStatus(await patch({ endDate }), 200);
    events = await delivered(policy.id);
    expect(types(events)).toEqual(['policy.updated']);
    const now = await staffPolicy(policy.id);
    expect(events[0].data.object).toEqual(now);
    expect(events[0].data.previous).toMatchObject({ endDate: policy.endDate, premium: policy.premium, invoice: policy.invoice });
    expect(now.premium).not.toBe(policy.premium);
    expect(Object.keys(events[0].data.previous!)).not.toEqual(expect.arrayContaining(['updatedAt']));

    // The same notes again, and a refused change: nothing.
    const before = await recorded();
    expectStatus(await patch({ notes: 'Gate code 4471' }), 200);
    expectStatus(await patch({ fleetDiscountRate: 5 }), 409);
    expect(await recorded()).toBe(before);

    // A draft invoiced by its client: it moves to PROCESSING (policy.stateChanged), no field of its own changed.
    const draft = await call(client.token, 'POST', '/client/policies', homeBody({ generateInvoice: false }));
    await delivered(draft.json().data.id);
    expectStatus(await call(client.token, 'PATCH', `/client/policies/${draft.json().data.id}`, { generateInvoice: true }), 200);
    events = await delivered(draft.json().data.id);
    expect(events).toMatchObject([{ type: 'policy.stateChanged', actor: { by: 'client', id: client.id },
      data: { object: { state: 'PROCESSING', generateInvoice: true, invoice: { id: expect.any(String) } }, previous: { state: 'DRAFT' } } }]);
  });
});

describe('policyClosure.requested, policyClosure.rejected, policy.cancelled', () => {
  it('record a request (client or counter), a rejection with the status before, and an approval\'s cancellation; a second decision none', async () => {
    const policy = await homePolicy(h, client.token, productId);
    await delivered(policy.id);
    const reason = 'The sale letter is not signed by the buyer';

    const asked = await call(client.token, 'POST', '/client/policies/closure', { policyId: policy.id, reason: 'Moving abroad for work' });
    expectStatus(asked, 201);
    const closureId = asked.json().data.id;
    let events = await delivered(closureId);
    expect(events).toMatchObject([{ type: 'policyClosure.requested', actor: { by: 'client', id: client.id }, object: { type: 'policyClosure', id: closureId },
      data: { object: { status: 'PENDING_REVIEW', policy: { id: policy.id } }, previous: null } }]);
    expect(events[0].data.object).toEqual(await staffClosure(closureId));

    expectStatus(await call(exec, 'POST', `/staff/policy-closures/${closureId}/reject`, { reason }), 200);
    events = await delivered(closureId);
    expect(events).toMatchObject([{ type: 'policyClosure.rejected', actor: { by: 'staff', id: execId },
      data: { object: { status: 'REJECTED', reviewNotes: reason, reviewedBy: { id: execId } }, previous: { status: 'PENDING_REVIEW' } } }]);
    expect(events[0].data.object).toEqual(await staffClosure(closureId));
    const before = await recorded();
    expectStatus(await call(exec, 'POST', `/staff/policy-closures/${closureId}/reject`, { reason }), 409);
    expect(await recorded()).toBe(before);

    // Asked again at the counter, then approved: the policy is cancelled.
    const counter = await call(exec, 'POST', `/staff/clients/${client.id}/policy-closures`, { policyId: policy.id, reason: 'Moving abroad for work' });
    expectStatus(counter, 201);
    events = await delivered(counter.json().data.id);
    expect(events).toMatchObject([{ type: 'policyClosure.requested', actor: { by: 'staff', id: execId } }]);
    expectStatus(await call(exec, 'POST', `/staff/policy-closures/${counter.json().data.id}/approve`, {}), 200);
    events = await delivered(policy.id);
    expect(types(events)).toEqual(['policy.cancelled', 'policy.stateChanged']);
    for (const type of ['policy.stateChanged', 'policy.cancelled'] as const) {
      expect(only(events, type)).toMatchObject({ actor: { by: 'staff', id: execId }, object: { type: 'policy', id: policy.id },
        data: { object: { state: 'CANCELLED' }, previous: { state: 'PROCESSING' } } });
      expect(only(events, type).data.object).toEqual(await staffPolicy(policy.id));
    }
  });
});
