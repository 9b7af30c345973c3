import { jobHandlers } from '../../server/app/jobs.js';
import { raiseDueDebits } from '../../server/domain/money/due-debits.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';
import { activePolicy, serverDay, standardClaim, type TestPolicy } from '../helpers/claims.js';
import { individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, sandboxStaffTokens } from '../helpers/staff.js';
import { webhookReceiver, type Received } from '../helpers/webhook-receiver.js';

/**
 * The money and claims events as an integrator receives them (issue 28): invoices created on
 * every path and closed unpaid, payments created on every path, direct debits collected, failed
 * and cancelled, claims filed, reviewed, moved, settled and closed. Each delivered to a local
 * receiver that verifies it with the Standard Webhooks library, with who made the change, the
 * object as its own GET answers it then, and the values before; a refused change records nothing.
 */

const TYPES = ['invoice.created', 'invoice.closed', 'transaction.created', 'directDebit.collected', 'directDebit.failed', 'directDebit.cancelled',
  'claim.filed', 'claim.reviewed', 'claim.stageChanged', 'claim.settled', 'claim.closed'];

let h: Harness;
let tokens: Awaited<ReturnType<typeof sandboxStaffTokens>>;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let productId: string;
let client: { token: string; id: string };
const [EXEC, OFFICER, HEAD_CLAIMS] = [sandboxStaff('exec'), sandboxStaff('officer'), sandboxStaff('head.claims')];

beforeAll(async () => {
  h = await createHarness();
  tokens = await sandboxStaffTokens(h);
  receiver = await webhookReceiver();
  productId = await onlineProductId(h, 'HOME');
  const endpoint = await call(tokens.exec, 'POST', '/staff/webhook-endpoints', { url: receiver.url, eventTypes: TYPES });
  expect(endpoint.statusCode).toBe(201);
  receiver.trust(endpoint.json().data.secret);
  const signed = await signUp(h, individualBody());
  client = { token: signed.token, id: signed.account.id };
}, 120_000);
afterAll(async () => { await receiver.close(); await h.close(); });
beforeEach(() => { receiver.received.length = 0; });

type Method = 'GET' | 'POST' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }) });
const ok = async (token: string, method: Method, url: string, payload?: object) => {
  const res = await call(token, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? undefined : res.json().data;
};
const homeBody = (extra: object = {}) => ({
  policyType: 'HOME', currency: 'GHS', startDate: serverDay(h, 0), endDate: serverDay(h, 364), productId, businessType: 'NEW_BUSINESS',
  assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }], ...extra,
});

/** A worker of the webhook queue, as `npm start` runs it: runs until nothing is ready. */
async function deliverAll() {
  const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, batchSize: 50,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE] } });
  while (await worker.tick() > 0) { /* next batch */ }
}

/** The events delivered about an object (of one type, when named), each verified with the endpoint's secret. */
function delivered(objectId: string, type?: string): Received['event'][] {
  const got = receiver.received.filter((r) => r.event.object.id === objectId && (type === undefined || r.event.type === type));
  expect(got.map((r) => r.verifiedWith)).toEqual(got.map(() => [0]));
  return got.map((r) => r.event);
}
/** The one event of a type delivered about an object. */
function one(objectId: string, type: string) {
  const got = delivered(objectId, type);
  expect(got).toHaveLength(1);
  return got[0];
}
/** The company's events recorded so far (a refused change must add none). */
const recordedCount = async () => Number((await h.db.selectFrom('domain_events').select((eb) => eb.fn.countAll<string>().as('n'))
  .where('tenant_id', '=', h.tenantId).executeTakeFirstOrThrow()).n);

const asClient = () => ({ by: 'client', id: client.id });
const asStaff = (member: { id: string }) => ({ by: 'staff', id: member.id });

describe('invoice.created and transaction.created', () => {
  it('fire on every path making one (own purchase, cart checkout, staff sale; client, staff and online payments), as each GET answers it', async () => {
    const own = await ok(client.token, 'POST', '/client/policies', homeBody());
    await ok(client.token, 'POST', '/client/cart', homeBody());
    const cart = await ok(client.token, 'POST', '/client/cart/checkout');
    const sold = await ok(tokens.officer, 'POST', `/staff/clients/${client.id}/policies`, homeBody());
    const cash = await ok(client.token, 'POST', '/client/transactions', { invoiceId: own.invoice.id, paymentMethod: 'CASH', amount: 100 });
    const counter = await ok(tokens.officer, 'POST', '/staff/transactions', { invoiceId: sold.invoice.id, paymentMethod: 'CASH', amount: 200 });
    const online = await ok(client.token, 'POST', '/client/transactions', { invoiceId: cart.invoice.id, paymentMethod: 'ONLINE', amount: 300 });
    await deliverAll();

    for (const [invoiceId, actor] of [[own.invoice.id, asClient()], [cart.invoice.id, asClient()], [sold.invoice.id, asStaff(OFFICER)]] as const) {
      const event = one(invoiceId, 'invoice.created');
      expect(event).toMatchObject({ type: 'invoice.created', actor, object: { type: 'invoice', id: invoiceId }, data: { previous: null } });
      // As staff's GET answered it then: unpaid, no payment yet.
      const now = await ok(tokens.exec, 'GET', `/staff/invoices/${invoiceId}`);
      expect(event.data.object).toEqual({ ...now, amountPaid: 0, amountUnpaid: now.amount, amountUnapproved: 0, convertedAmountPaid: 0,
        convertedAmountUnpaid: now.convertedAmount, convertedAmountUnapproved: 0, transactions: [] });
    }
    expect(one(sold.invoice.id, 'invoice.created').data.object).toMatchObject({ createdBy: { id: OFFICER.id }, policyId: sold.id });
    expect(one(cart.invoice.id, 'invoice.created').data.object.policies.map((p: { id: string }) => p.id)).toEqual(cart.policies.map((p: { id: string }) => p.id));

    for (const [payment, actor, status] of [[cash, asClient(), 'PENDING_APPROVAL'], [counter, asStaff(OFFICER), 'PENDING_APPROVAL'],
      [online, asClient(), 'PENDING_PAYMENT']] as const) {
      const event = one(payment.id, 'transaction.created');
      expect(event).toMatchObject({ actor, object: { type: 'transaction', id: payment.id }, data: { previous: null } });
      expect(event.data.object).toEqual(await ok(tokens.exec, 'GET', `/staff/transactions/${payment.id}`));
      expect(event.data.object.status).toBe(status);
    }
    // The online one as the client got it: its checkout to go to.
    expect(one(online.id, 'transaction.created').data.object.checkoutUrl).toBe(online.checkoutUrl);
  });

  it('records nothing for a refused payment (its checkouts\' expiry rolled back with it) or purchase, nor for a replayed payment', async () => {
    const policy = await ok(client.token, 'POST', '/client/policies', homeBody());
    const checkout = await ok(client.token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'ONLINE', amount: policy.invoice.amount });
    const statusOf = async (id: string) => (await h.db.selectFrom('transactions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    h.clock.advance(31 * 60_000); // the checkout is stale: the next payment expires it first
    try {
      const before = await recordedCount();
      const over = await call(client.token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: policy.invoice.amount + 1 });
      expect(over.statusCode).toBe(422);
      expect((await call(client.token, 'POST', '/client/cart/checkout')).statusCode).toBe(409); // the cart is empty
      expect(await recordedCount()).toBe(before);
      expect(await statusOf(checkout.id)).toBe('PENDING_PAYMENT');

      const body = { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: 50 };
      const headers = { 'idempotency-key': 'webhook-events-money-1' };
      const first = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: client.token, payload: body, headers });
      const again = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: client.token, payload: body, headers });
      expect([first.statusCode, again.json().data.id]).toEqual([201, first.json().data.id]);
      // Recorded once (read from the store: deliveries made at this clock's time would not pass a receiver's timestamp check).
      const recorded = (objectId: string) => h.db.selectFrom('domain_events').select(['type', 'actor_kind', 'previous'])
        .where('object_id', '=', objectId).orderBy('created_at').execute();
      expect(await recorded(first.json().data.id)).toEqual([{ type: 'transaction.created', actor_kind: 'client', previous: null }]);
      // This time the expiry committed, with its event: the system's, from PENDING_PAYMENT.
      expect(await statusOf(checkout.id)).toBe('CANCELLED');
      expect((await recorded(checkout.id)).filter((e) => e.type !== 'transaction.created'))
        .toEqual([{ type: 'transaction.failed', actor_kind: 'system', previous: { status: 'PENDING_PAYMENT' } }]);
    } finally {
      h.clock.advance(-31 * 60_000);
    }
  });
});

describe('directDebit.collected, .failed and .cancelled; invoice.closed', () => {
  /** A new policy of the client's with a mandate due today from `mobileNumber`; the job raises its debit. */
  async function debited(mobileNumber: string) {
    const policy = await ok(client.token, 'POST', '/client/policies', homeBody());
    const mandate = await ok(client.token, 'POST', '/client/direct-debits', { policyId: policy.id, startDate: serverDay(h, 0), frequency: 'MONTHLY', mobileNumber });
    const report = await raiseDueDebits(h.app.services, h.clock.now());
    expect(report.failed).toEqual([]);
    const payment = await h.db.selectFrom('transactions').select(['id', 'provider_reference']).where('direct_debit_id', '=', mandate.id).executeTakeFirstOrThrow();
    return { policy, mandate, payment };
  }
  const answerPrompt = async (reference: string, outcome: 'approve' | 'decline') => {
    const res = await h.call({ method: 'POST', url: `/api/v1/sandbox/mobile-money/${reference}`, apiKey: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: `outcome=${outcome}` });
    expect(res.statusCode).toBe(303);
  };

  it('a debit run raised by the job (system), collected or failed at the provider; mandates cancelled by the client and by staff', async () => {
    const paid = await debited('0244123456');
    const failing = await debited('0244120000'); // the sandbox's wallets ending 0000 always fail
    await answerPrompt(paid.payment.provider_reference!, 'approve');
    await answerPrompt(failing.payment.provider_reference!, 'approve');
    await deliverAll();

    for (const { payment, mandate } of [paid, failing]) {
      expect(one(payment.id, 'transaction.created')).toMatchObject({ actor: { by: 'system', id: null },
        data: { object: { id: payment.id, paymentMethod: 'MOBILE_MONEY', status: 'PENDING_VERIFICATION', mobileNumber: mandate.mobileNumber } } });
    }
    const collected = one(paid.mandate.id, 'directDebit.collected');
    expect(collected).toMatchObject({ actor: { by: 'provider', id: 'sandbox' }, object: { type: 'directDebit', id: paid.mandate.id },
      data: { previous: null, object: { id: paid.mandate.id, invoice: { id: paid.policy.invoice.id, status: 'FULLY_PAID', amountUnpaid: 0 } } } });
    const failed = one(failing.mandate.id, 'directDebit.failed');
    expect(failed).toMatchObject({ actor: { by: 'provider', id: 'sandbox' },
      data: { previous: null, object: { id: failing.mandate.id, status: 'ACTIVE', invoice: { status: 'UNPAID', amountPaid: 0 } } } });
    expect(delivered(paid.mandate.id, 'directDebit.failed')).toEqual([]);
    expect(delivered(failing.mandate.id, 'directDebit.collected')).toEqual([]);

    // The failing one is cancelled by the client; a second cancellation is refused and records nothing.
    await ok(client.token, 'POST', `/client/direct-debits/${failing.mandate.id}/cancel`, { reason: 'Changing my wallet' });
    const before = await recordedCount();
    expect((await call(client.token, 'POST', `/client/direct-debits/${failing.mandate.id}/cancel`, { reason: 'Changing my wallet' })).statusCode).toBe(409);
    expect(await recordedCount()).toBe(before);
    // Another is cancelled by staff at the counter.
    const policy = await ok(client.token, 'POST', '/client/policies', homeBody());
    const byStaff = await ok(client.token, 'POST', '/client/direct-debits', { policyId: policy.id, startDate: serverDay(h, 5), frequency: 'MONTHLY' });
    await ok(tokens.officer, 'POST', `/staff/direct-debits/${byStaff.id}/cancel`, { reason: 'Paying in cash instead' });
    await deliverAll();

    for (const [id, actor, reason] of [[failing.mandate.id, asClient(), 'Changing my wallet'], [byStaff.id, asStaff(OFFICER), 'Paying in cash instead']] as const) {
      const cancelled = one(id, 'directDebit.cancelled');
      expect(cancelled).toMatchObject({ actor, object: { type: 'directDebit', id }, data: { previous: { status: 'ACTIVE' } } });
      const { history: _history, ...now } = await ok(client.token, 'GET', `/client/direct-debits/${id}`);
      expect(cancelled.data.object).toEqual(now);
      expect(now).toMatchObject({ status: 'CANCELLED', cancelReason: reason });
    }
  });

  it('a policy closed by staff: its mandate cancelled, its pending payment rejected and its invoice closed, each by the approver; a deleted one closes its invoice', async () => {
    const policy = await ok(client.token, 'POST', '/client/policies', homeBody());
    const cash = await ok(client.token, 'POST', '/client/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: 100 });
    const mandate = await ok(client.token, 'POST', '/client/direct-debits', { policyId: policy.id, startDate: serverDay(h, 5), frequency: 'MONTHLY' });
    const closure = await ok(client.token, 'POST', '/client/policies/closure', { policyId: policy.id, reason: 'Sold the house' });
    await ok(tokens.exec, 'POST', `/staff/policy-closures/${closure.id}/approve`, {});
    const deletable = await ok(client.token, 'POST', '/client/policies', homeBody());
    await ok(client.token, 'DELETE', `/client/policies/${deletable.id}`);
    await deliverAll();

    expect(one(mandate.id, 'directDebit.cancelled')).toMatchObject({ actor: asStaff(EXEC), data: { previous: { status: 'ACTIVE' },
      object: { status: 'CANCELLED', cancelReason: 'Policy closed' } } });
    const closed = one(policy.invoice.id, 'invoice.closed');
    expect(closed).toMatchObject({ actor: asStaff(EXEC), object: { type: 'invoice', id: policy.invoice.id },
      data: { previous: { isClosed: false, amountUnpaid: policy.invoice.amount - 100 } } }); // before the closure: its pending 100 counted as paid
    expect(closed.data.object).toEqual(await ok(tokens.exec, 'GET', `/staff/invoices/${policy.invoice.id}`));
    expect(closed.data.object).toMatchObject({ isClosed: true, amountUnpaid: 0, closedReason: `Policy ${policy.policyNo} closed`,
      transactions: [{ id: cash.id, status: 'REJECTED' }] });
    // The payment's own rejection, not a receiver of this endpoint's types, is recorded by the approver too.
    const rejected = await h.db.selectFrom('domain_events').select(['type', 'actor_kind', 'actor_id', 'previous'])
      .where('object_id', '=', cash.id).where('type', '=', 'transaction.rejected').execute();
    expect(rejected).toEqual([{ type: 'transaction.rejected', actor_kind: 'staff', actor_id: EXEC.id, previous: { status: 'PENDING_APPROVAL' } }]);
    // Deleted unpaid: the invoice is gone (404), its last answer in the event, by the client.
    expect(one(deletable.invoice.id, 'invoice.closed')).toMatchObject({ actor: asClient(),
      data: { previous: null, object: { id: deletable.invoice.id, status: 'UNPAID', isClosed: false } } });
    expect((await call(tokens.exec, 'GET', `/staff/invoices/${deletable.invoice.id}`)).statusCode).toBe(404);
  });
});

describe('claim.filed, .reviewed, .stageChanged, .settled and .closed', () => {
  let policy: TestPolicy;
  beforeAll(async () => { policy = await activePolicy(h, client.token, productId); });
  const staffClaim = (id: string) => ok(tokens.exec, 'GET', `/staff/claims/${id}`);

  it('a claim filed by the client, reviewed, moved to SETTLEMENT and settled: every move, the settlement and the close, by who made each', async () => {
    const filed = await ok(client.token, 'POST', '/client/claims', standardClaim(h, policy));
    const atFiling = await staffClaim(filed.id);
    await ok(tokens.officer, 'POST', `/staff/claims/${filed.id}/reviews`, { inspectionNotes: 'Floor damaged', adjustedSettlementAmount: 4200 });
    const atReview = await staffClaim(filed.id);
    await ok(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/stage`, { stage: 'SETTLEMENT', notes: 'Assessment agreed; proceed to settlement' });
    const settled = await ok(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/settlements`, {
      amount: 3900, recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'MOBILE_MONEY', paymentMethodInfo: 'MTN MoMo 0244123456' });
    // Refused changes of a closed claim record nothing.
    const before = await recordedCount();
    expect((await call(tokens.officer, 'POST', `/staff/claims/${filed.id}/reviews`, { generalNotes: 'Too late' })).statusCode).toBe(409);
    expect((await call(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/close`, { notes: 'Closing it again' })).statusCode).toBe(409);
    expect(await recordedCount()).toBe(before);
    await deliverAll();

    const events = delivered(filed.id);
    expect(events.map((e) => e.type).sort()).toEqual(['claim.closed', 'claim.filed', 'claim.reviewed', 'claim.settled',
      'claim.stageChanged', 'claim.stageChanged', 'claim.stageChanged']);
    expect(events.every((e) => e.object.type === 'claim' && e.object.id === filed.id)).toBe(true);
    expect(one(filed.id, 'claim.filed')).toMatchObject({ actor: asClient(), data: { previous: null } });
    expect(one(filed.id, 'claim.filed').data.object).toEqual(atFiling);
    expect(one(filed.id, 'claim.reviewed')).toMatchObject({ actor: asStaff(OFFICER), data: { previous: null } });
    expect(one(filed.id, 'claim.reviewed').data.object).toEqual(atReview);

    // Each event holds the claim as the call left it (settling closes it in the same call), with the value its own move changed.
    const moves = delivered(filed.id, 'claim.stageChanged').map((e) => [e.actor.id, e.data.previous, e.data.object.status, e.data.object.stage]);
    expect(moves).toEqual(expect.arrayContaining([
      [HEAD_CLAIMS.id, { stage: 'REVIEW' }, 'ACTIVE', 'SETTLEMENT'],
      [HEAD_CLAIMS.id, { stage: 'SETTLEMENT' }, 'CLOSED', 'SETTLED'],
      [HEAD_CLAIMS.id, { status: 'ACTIVE' }, 'CLOSED', 'SETTLED'],
    ]));
    expect(one(filed.id, 'claim.settled')).toMatchObject({ actor: asStaff(HEAD_CLAIMS),
      data: { previous: { stage: 'SETTLEMENT' }, object: { stage: 'SETTLED', status: 'CLOSED', settlements: [{ amount: 3900, recipient: 'Kofi Mensah' }] } } });
    expect(one(filed.id, 'claim.settled').data.object).toEqual(settled);
    const closed = one(filed.id, 'claim.closed');
    expect(closed).toMatchObject({ actor: asStaff(HEAD_CLAIMS), data: { previous: { status: 'ACTIVE' } } });
    expect(closed.data.object).toEqual(settled);
  });

  it('a claim filed by staff for the client and repudiated: REJECTED closes it; a claim the client withdraws is closed too', async () => {
    const filed = await ok(tokens.officer, 'POST', `/staff/clients/${client.id}/claims`, standardClaim(h, policy));
    await ok(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/stage`, { stage: 'REPUDIATION', notes: 'The loss predates the cover' });
    const before = await recordedCount();
    expect((await call(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/stage`, { stage: 'SETTLEMENT', notes: 'Changed our mind' })).statusCode).toBe(409);
    expect(await recordedCount()).toBe(before);
    const rejected = await ok(tokens.headClaims, 'POST', `/staff/claims/${filed.id}/stage`, { stage: 'REJECTED', notes: 'Repudiated under clause 4' });
    const withdrawn = await ok(client.token, 'POST', '/client/claims', standardClaim(h, policy));
    await ok(client.token, 'DELETE', `/client/claims/${withdrawn.id}`);
    await deliverAll();

    expect(one(filed.id, 'claim.filed')).toMatchObject({ actor: asStaff(OFFICER), data: { object: { id: filed.id, status: 'ACTIVE', stage: 'REVIEW' } } });
    expect(delivered(filed.id, 'claim.stageChanged').map((e) => [e.data.previous, e.data.object.status, e.data.object.stage])).toEqual(expect.arrayContaining([
      [{ stage: 'REVIEW' }, 'ACTIVE', 'REPUDIATION'], [{ stage: 'REPUDIATION' }, 'CLOSED', 'REJECTED'], [{ status: 'ACTIVE' }, 'CLOSED', 'REJECTED'],
    ]));
    expect(delivered(filed.id, 'claim.stageChanged')).toHaveLength(3);
    expect(delivered(filed.id, 'claim.settled')).toEqual([]);
    expect(one(filed.id, 'claim.closed')).toMatchObject({ actor: asStaff(HEAD_CLAIMS), data: { previous: { status: 'ACTIVE' }, object: rejected } });

    // Withdrawn: deleted (404 from then on); the event holds it as it was last answered, by the client.
    expect(one(withdrawn.id, 'claim.closed')).toMatchObject({ actor: asClient(), data: { previous: null,
      object: { id: withdrawn.id, claimNo: withdrawn.claimNo, status: 'ACTIVE', stage: 'REVIEW' } } });
    expect((await call(tokens.exec, 'GET', `/staff/claims/${withdrawn.id}`)).statusCode).toBe(404);
  });
});
