import { Webhook } from 'standardwebhooks';
import { jobHandlers } from '../../server/app/jobs.js';
import { createEndpoint } from '../../server/domain/integrations/webhook-endpoints.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { DELIVER_WEBHOOK_QUEUE, DISABLE_AFTER_MS, webhookDeliveryHandler } from '../../server/platform/webhooks/deliveries.js';
import { homePolicy } from '../helpers/claims.js';
import { individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhooks as an integrator meets them: endpoints kept by executive managers, events delivered
 * signed (verified here with the Standard Webhooks library on a real local receiver), retried on
 * the schedule, disabled after days of failure, secrets rotated with both signatures, URLs refused
 * outside the sandbox, and one company's events never at another's endpoint.
 */

let h: Harness;
let exec: string;
let head: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  exec = (await staffSession(h, 'exec')).token;
  head = (await staffSession(h, 'head.sales')).token;
  receiver = await webhookReceiver();
  productId = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await receiver.close(); await h.close(); });
beforeEach(() => { receiver.received.length = 0; receiver.answers.length = 0; });

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }) });

/** A worker of the webhook queue, as `npm start` runs it: runs until nothing is ready. */
async function deliverAll() {
  const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, batchSize: 50,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE] } });
  while (await worker.tick() > 0) { /* next batch */ }
}

async function newEndpoint(payload: object = {}) {
  const res = await call(exec, 'POST', '/staff/webhook-endpoints', { url: receiver.url, description: 'Accounting system', ...payload });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; secret: string; url: string };
}
/** An endpoint of the other company (which has no executive manager to make one through the API). */
const otherCompanyEndpoint = (url: string) => h.db.insertInto('webhook_endpoints').values({
  tenant_id: h.otherTenantId, url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: null, event_types: null,
  previous_secret: null, previous_secret_expires_at: null, failing_since: null, disabled_reason: null, created_by_staff_id: null,
  created_at: h.clock.now(), updated_at: h.clock.now(),
}).returning('id').executeTakeFirstOrThrow();
const deliveries = async (endpointId: string) => (await call(exec, 'GET', `/staff/webhook-endpoints/${endpointId}/deliveries`)).json().data as any[];

describe('createWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint, deleteWebhookEndpoint: /staff/webhook-endpoints', () => {
  it('makes an endpoint with a whsec_ secret shown once; reads, changes and deletes it; the trail records it, secret redacted', async () => {
    const made = await newEndpoint({ eventTypes: ['invoice.paid'] });
    expect(made).toMatchObject({ url: receiver.url, eventTypes: ['invoice.paid'], enabled: true, createdBy: { id: sandboxStaff('exec').id } });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const read = (await call(exec, 'GET', `/staff/webhook-endpoints/${made.id}`)).json().data;
    expect(read).not.toHaveProperty('secret');
    expect((await call(exec, 'GET', '/staff/webhook-endpoints')).json().data.map((e: { id: string }) => e.id)).toContain(made.id);
    const changed = await call(exec, 'PATCH', `/staff/webhook-endpoints/${made.id}`, { eventTypes: null, description: 'Core system' });
    expect(changed.json().data).toMatchObject({ eventTypes: null, description: 'Core system' });
    const [created] = (await call(exec, 'GET', `/staff/audit-events?entityId=${made.id}&action=createWebhookEndpoint`)).json().data;
    expect(created.after).toMatchObject({ url: receiver.url, secret: '[redacted]' });
    expect(JSON.stringify(created)).not.toContain(made.secret);
    expect((await call(exec, 'DELETE', `/staff/webhook-endpoints/${made.id}`)).statusCode).toBe(204);
    expect((await call(exec, 'GET', `/staff/webhook-endpoints/${made.id}`)).statusCode).toBe(404);
  });

  it('is for executive managers: a head of department 403, a client token 403, another company\'s endpoint 404', async () => {
    expect((await call(head, 'GET', '/staff/webhook-endpoints')).json().code).toBe('NOT_PERMITTED');
    expect((await call(head, 'POST', '/staff/webhook-endpoints', { url: receiver.url })).json().code).toBe('NOT_PERMITTED');
    const { token } = await signUp(h, individualBody());
    expect((await call(token, 'GET', '/staff/webhook-endpoints')).json().code).toBe('WRONG_TOKEN_KIND');
    const foreign = await otherCompanyEndpoint('http://127.0.0.1:9/hooks');
    for (const method of ['GET', 'DELETE'] as const) expect((await call(exec, method, `/staff/webhook-endpoints/${foreign.id}`)).statusCode).toBe(404);
    expect((await call(exec, 'POST', `/staff/webhook-endpoints/${foreign.id}/test`)).statusCode).toBe(404);
  });

  it('refuses outside the sandbox an http URL and a name resolving to a private or loopback address (422 naming why)', async () => {
    const production = { ...h.app.services, config: { ...h.app.services.config, production: true }, scope: new TenantScope(h.db, h.tenantId) };
    const refusal = (url: string) => createEndpoint(production, sandboxStaff('exec').id, { url, enabled: true }).then(() => undefined, (error) => ({ status: error.statusCode, code: error.code, message: error.message }));
    expect(await refusal('http://hooks.example.com/coverline')).toEqual({ status: 422, code: 'WEBHOOK_URL_REFUSED', message: 'body.url only https URLs are allowed' });
    expect(await refusal('https://localhost/hooks')).toMatchObject({ status: 422, code: 'WEBHOOK_URL_REFUSED', message: expect.stringMatching(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/) });
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', message: 'body.url 169.254.169.254 is not a public address' });
    expect(await refusal('https://10.0.0.12/hooks')).toMatchObject({ code: 'WEBHOOK_URL_REFUSED' });
    // In the sandbox, a local receiver is taken (the rest of this suite).
  });
});

describe('delivery', () => {
  it('delivers a test event signed with the endpoint\'s secret, verified by the Standard Webhooks library; the attempt is listed', async () => {
    const endpoint = await newEndpoint({ eventTypes: ['directDebit.created'] });
    receiver.trust(endpoint.secret);
    const queued = await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    expect(queued.statusCode).toBe(202);
    expect(queued.json().data).toMatchObject({ status: 'PENDING', attemptCount: 0, event: { type: 'webhookEndpoint.ping' } });
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.verifiedWith).toEqual([0]);
    expect(got.headers['webhook-id']).toBe(queued.json().data.event.id);
    expect(got.event).toMatchObject({
      id: queued.json().data.event.id, type: 'webhookEndpoint.ping', apiVersion: expect.any(String),
      actor: { by: 'staff', id: sandboxStaff('exec').id }, object: { type: 'webhookEndpoint', id: endpoint.id },
      data: { object: { id: endpoint.id, url: receiver.url }, previous: null },
    });
    expect(got.body).not.toContain(endpoint.secret);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1, attempts: [{ statusCode: 200, responseExcerpt: 'ok', error: null }] });
    await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('delivers a business event (invoice.paid) with the invoice as the API answers it, to endpoints taking its type only', async () => {
    const all = await newEndpoint();
    const other = await newEndpoint({ eventTypes: ['directDebit.created'] });
    receiver.trust(all.secret);
    const { token } = await signUp(h, individualBody());
    const policy = await homePolicy(h, token, productId);
    const paid = await call(token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: policy.invoice.amount });
    expect((await call(exec, 'POST', `/staff/transactions/${paid.json().data.id}/approve`, { notes: 'Counted' })).statusCode).toBe(200);
    await deliverAll();
    const paidEvents = receiver.received.filter((r) => r.event.type === 'invoice.paid');
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0]).toMatchObject({
      verifiedWith: [0],
      event: { object: { type: 'invoice', id: policy.invoice.id }, data: { object: { id: policy.invoice.id, status: 'FULLY_PAID', amountUnpaid: 0 } } },
    });
    // The payment's own event: approved, with its status before.
    const approved = receiver.received.filter((r) => r.event.type === 'transaction.approved');
    expect(approved).toMatchObject([{ verifiedWith: [0], event: {
      actor: { by: 'staff', id: sandboxStaff('exec').id }, object: { type: 'transaction', id: paid.json().data.id },
      data: { object: { id: paid.json().data.id, status: 'APPROVED', reviewedBy: { id: sandboxStaff('exec').id } }, previous: { status: 'PENDING_APPROVAL' } },
    } }]);
    // The same event is listed by GET /staff/events with the same body.
    const listed = (await call(exec, 'GET', `/staff/events/${paidEvents[0].event.id}`)).json().data;
    expect(listed).toEqual(paidEvents[0].event);
    expect(await deliveries(other.id)).toEqual([]);
    for (const endpoint of [all, other]) await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('retries on the schedule: 500 then 200, the same webhook-id; a FAILED delivery is sent again on request', async () => {
    const endpoint = await newEndpoint();
    receiver.trust(endpoint.secret);
    receiver.answers.push(500);
    const { data: queued } = (await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`)).json();
    await deliverAll();
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1, attempts: [{ statusCode: 500, responseExcerpt: 'failing with 500' }] });
    expect(Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.attempts[0].at)).toBe(5_000);
    await deliverAll(); // not yet due
    expect(receiver.received).toHaveLength(1);
    h.clock.advance(5_000);
    await deliverAll();
    [delivery] = await deliveries(endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2 });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([200, 500]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([queued.event.id, queued.event.id]);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);

    // Replayed on request: the same event again.
    const again = await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`);
    expect(again.statusCode).toBe(202);
    await deliverAll();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([queued.event.id, queued.event.id, queued.event.id]);
    expect((await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`)).statusCode).toBe(404);
    await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('signs with both secrets for a day after a rotation, then with the new one only', async () => {
    const endpoint = await newEndpoint();
    const rotated = (await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/rotate-secret`)).json().data;
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.secretRotatedUntil).toEqual(expect.any(String));
    receiver.trust(endpoint.secret, rotated.secret);
    await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    await deliverAll();
    expect(receiver.received[0].headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(receiver.received[0].verifiedWith).toEqual([0, 1]);
    // A day later: the new secret alone (the signature checked directly: the library's timestamp window is real time).
    h.clock.advance(24 * 3_600_000 + 1_000);
    await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    await deliverAll();
    const later = receiver.received[1];
    expect(later.headers['webhook-signature'].split(' ')).toHaveLength(1);
    const timestamp = new Date(Number(later.headers['webhook-timestamp']) * 1000);
    expect(later.headers['webhook-signature']).toBe(new Webhook(rotated.secret).sign(later.headers['webhook-id'], timestamp, later.body));
    h.clock.advance(-(24 * 3_600_000 + 1_000));
    await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('disables an endpoint whose every attempt failed for 5 days and tells the executive managers', async () => {
    const endpoint = await newEndpoint();
    receiver.answers.push(...Array(20).fill(503));
    await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    await deliverAll();
    expect((await call(exec, 'GET', `/staff/webhook-endpoints/${endpoint.id}`)).json().data).toMatchObject({ enabled: true, failingSince: expect.any(String) });
    h.clock.advance(DISABLE_AFTER_MS);
    await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    await deliverAll();
    const disabled = (await call(exec, 'GET', `/staff/webhook-endpoints/${endpoint.id}`)).json().data;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/^every delivery failed since .* \(last: /) });
    const notices = await h.db.selectFrom('notifications').select(['title', 'staff_id']).where('title', '=', 'Webhook endpoint disabled').execute();
    expect(notices.map((n) => n.staff_id)).toContain(sandboxStaff('exec').id);
    // Enabled again: a fresh start.
    const enabled = (await call(exec, 'PATCH', `/staff/webhook-endpoints/${endpoint.id}`, { enabled: true })).json().data;
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    h.clock.advance(-DISABLE_AFTER_MS);
    await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('refuses at send time, outside the sandbox, a URL that resolves inward (the attempt says why)', async () => {
    const endpoint = await newEndpoint();
    await call(exec, 'POST', `/staff/webhook-endpoints/${endpoint.id}/test`);
    const strict = webhookDeliveryHandler(h.db, { allowPrivateNetwork: false });
    const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, handlers: { [DELIVER_WEBHOOK_QUEUE]: strict } });
    while (await worker.tick() > 0) { /* next batch */ }
    expect(receiver.received).toEqual([]);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/127\.0\.0\.1|http/) });
    await call(exec, 'DELETE', `/staff/webhook-endpoints/${endpoint.id}`);
  });

  it('never delivers one company\'s events to another company\'s endpoint', async () => {
    const theirs = await webhookReceiver();
    try {
      await otherCompanyEndpoint(theirs.url);
      const ours = await newEndpoint();
      const { token } = await signUp(h, individualBody());
      const policy = await homePolicy(h, token, productId);
      const paid = await call(token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: policy.invoice.amount });
      await call(exec, 'POST', `/staff/transactions/${paid.json().data.id}/approve`, { notes: 'Counted' });
      await call(exec, 'POST', `/staff/webhook-endpoints/${ours.id}/test`);
      await deliverAll();
      // Ours get the company's events (these among them: the catalogue grows), theirs none.
      expect(receiver.received.map((r) => r.event.type)).toEqual(expect.arrayContaining(['client.created', 'invoice.created', 'invoice.paid', 'transaction.created', 'transaction.approved', 'webhookEndpoint.ping']));
      expect(theirs.received).toEqual([]);
      await call(exec, 'DELETE', `/staff/webhook-endpoints/${ours.id}`);
    } finally {
      await theirs.close();
    }
  });
});
