import { randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { signatureHeader } from '../../server/platform/payments/signature.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectFiguresAgree as figuresAgree } from '../helpers/money.js';
import { onlineProductId, plusDays, signUp } from '../helpers/clients.js';

/**
 * The sandbox payment provider end to end: its checkout page and mobile money prompt, the signed
 * webhook they send, and the webhook's rules (signature, 5-minute tolerance, once per event id,
 * late and out-of-order events, amounts re-checked). After every test the invoice's figures are
 * the sums of its payments.
 */

let h: Harness;
let token: string;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });
// A test that stopped the clock leaves it running on the machine's time again.
afterEach(() => { h.clock.set(new Date().toISOString()); });

/** A new home policy of the client's, invoiced; cover starting `startDays` from today. */
async function invoiced(startDays = 0, sumInsured = 450000) {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(startDays), endDate: plusDays(startDays + 364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { policyId: policy.id as string, invoiceId: policy.invoice.id as string, invoiceNo: policy.invoice.invoiceNo as string, amount: policy.invoice.amount as number };
}

async function pay(body: Record<string, unknown>) {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; transactionNo: string; status: string; amount: number; currency: string; checkoutUrl: string | null };
}

const invoiceOf = async (invoiceId: string) =>
  ((await h.call({ method: 'GET', url: '/api/v1/client/invoices?usePagination=false', token })).json().data as Array<Record<string, any>>)
    .find((i) => i.id === invoiceId)!;
const policyState = async (policyId: string) => (await h.call({ method: 'GET', url: `/api/v1/client/policies/${policyId}`, token })).json().data.state;
const statusOf = async (transactionId: string) =>
  (await h.db.selectFrom('transactions').select('status').where('id', '=', transactionId).executeTakeFirstOrThrow()).status;
const eventsOf = (transactionId: string) =>
  h.db.selectFrom('payment_events').select(['event_id', 'type', 'outcome', 'tenant_id']).where('transaction_id', '=', transactionId).orderBy('received_at').execute();
const movesOf = (transactionId: string) =>
  h.db.selectFrom('transaction_state_changes').select(['from_state', 'to_state', 'actor_kind']).where('transaction_id', '=', transactionId)
    .orderBy('created_at').execute();

const expectFiguresAgree = (invoiceId: string) => figuresAgree(h, token, invoiceId);

// The sandbox pages, as the payer's browser reaches them (no Api-Key, no token).
const pathOf = (url: string) => new URL(url).pathname;
const openPage = (path: string) => h.call({ method: 'GET', url: path, apiKey: null, headers: { accept: 'text/html' } });
const answer = (path: string, form: string, contentType = 'application/x-www-form-urlencoded') =>
  h.call({ method: 'POST', url: path, apiKey: null, headers: { 'content-type': contentType, accept: 'text/html' }, payload: form });
const promptPath = (transactionId: string) => `/api/v1/sandbox/mobile-money/sbx_momo_${transactionId}`;

// The webhook, as a provider calls it.
type EventType = 'checkout.completed' | 'checkout.failed' | 'checkout.cancelled' | 'mobile_money.completed' | 'mobile_money.failed';
function event(tx: { id: string; amount: number; currency: string }, type: EventType, data: Record<string, unknown> = {}) {
  const reference = type.startsWith('checkout') ? `sbx_chk_${tx.id}` : `sbx_momo_${tx.id}`;
  return {
    id: `evt_${randomBytes(12).toString('hex')}`, type, created: Math.floor(h.clock.now().getTime() / 1000),
    data: { reference, transactionId: tx.id, amount: tx.amount, currency: tx.currency, ...data },
  };
}
function deliver(body: unknown, options: { at?: Date; signature?: string | null; provider?: string } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = options.signature === undefined ? signatureHeader(h.config.paymentWebhookSecret, raw, options.at ?? h.clock.now()) : options.signature;
  if (signature !== null) headers['coverline-signature'] = signature;
  return h.call({ method: 'POST', url: `/api/v1/webhooks/payments/${options.provider ?? 'sandbox'}`, apiKey: null, headers, payload: raw });
}

describe('the sandbox checkout page', () => {
  it('shows the merchant, invoice, amount and three buttons, under its own strict CSP, and escapes what it shows', async () => {
    // A house insured high enough that its premium is more than the part paid here.
    const { invoiceId, invoiceNo } = await invoiced(0, 4_500_000);
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 1234.5 });
    expect(tx.checkoutUrl).toBe(`${h.config.publicBaseUrl}/api/v1/sandbox/checkout/sbx_chk_${tx.id}`);
    const page = await openPage(pathOf(tx.checkoutUrl!));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    const tenant = await h.db.selectFrom('companies').select('name').where('id', '=', h.tenantId).executeTakeFirstOrThrow();
    expect(page.body).toContain(`<h1>Pay ${tenant.name}</h1>`);
    expect(page.body).toContain(`<dd>${invoiceNo}</dd>`);
    expect(page.body).toContain(`<dd>${tx.transactionNo}</dd>`);
    expect(page.body).toContain('<dd>GHS 1,234.50</dd>');
    expect(page.body).toContain(`<form method="post" action="/api/v1/sandbox/checkout/sbx_chk_${tx.id}">`);
    for (const [value, label] of [['pay', 'Pay GHS 1,234.50'], ['fail', 'Fail (card declined)'], ['cancel', 'Cancel']]) {
      expect(page.body).toContain(`name="outcome" value="${value}"`);
      expect(page.body).toContain(`>${label}</button>`);
    }
    expect(page.body).not.toMatch(/<script|src=|href=/);

    // The merchant's name is the tenant's: whatever it holds is shown as text, never as markup.
    await h.db.updateTable('companies').set({ name: `<script>alert("x")</script> & 'Sons'` }).where('id', '=', h.tenantId).execute();
    try {
      const hostile = await openPage(pathOf(tx.checkoutUrl!));
      expect(hostile.body).not.toContain('<script>');
      expect(hostile.body).toContain('<h1>Pay &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Sons&#39;</h1>');
      expect(hostile.body).toContain('<title>Pay GHS 1,234.50 to &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Sons&#39;</title>');
    } finally {
      await h.db.updateTable('companies').set({ name: tenant.name }).where('id', '=', h.tenantId).execute();
    }
    await expectFiguresAgree(invoiceId);
  });

  it('answers a 404 page for an unknown reference, and 400 for one not of its form', async () => {
    for (const path of [`/api/v1/sandbox/checkout/sbx_chk_${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`]) {
      const missing = await openPage(path);
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(missing.body).toContain('<h1>Checkout not found</h1>');
      expect((await answer(path, 'outcome=pay')).statusCode).toBe(404);
    }
    const malformed = await openPage('/api/v1/sandbox/checkout/not-a-reference');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDATION_ERROR');
    // A mobile money payment has no checkout page, nor a checkout a prompt.
    const { invoiceId } = await invoiced();
    const momo = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 10, mobileNumber: '0244123456' });
    expect((await openPage(`/api/v1/sandbox/checkout/sbx_chk_${momo.id}`)).statusCode).toBe(404);
    const card = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 10 });
    expect((await openPage(promptPath(card.id))).statusCode).toBe(404);
    await expectFiguresAgree(invoiceId);
  });

  it('Pay: the signed webhook settles the payment, the invoice is paid, the policy moves on, and the page says paid', async () => {
    const { invoiceId, policyId, amount } = await invoiced(0);
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const path = pathOf(tx.checkoutUrl!);
    const posted = await answer(path, 'outcome=pay');
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    expect(await statusOf(tx.id)).toBe('APPROVED');
    const invoice = await expectFiguresAgree(invoiceId);
    expect(invoice).toMatchObject({ status: 'FULLY_PAID', isClosed: true, amountApproved: amount, amountUnpaid: 0 });
    expect(await policyState(policyId)).toBe('ACTIVE');
    // The event went through the real webhook: recorded, by the provider.
    expect(await eventsOf(tx.id)).toEqual([{ event_id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type: 'checkout.completed', outcome: 'settled', tenant_id: h.tenantId }]);
    expect(await movesOf(tx.id)).toEqual([
      { from_state: null, to_state: 'PENDING_PAYMENT', actor_kind: 'client' },
      { from_state: 'PENDING_PAYMENT', to_state: 'APPROVED', actor_kind: 'provider' },
    ]);
    const result = await openPage(path);
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('Payment received');
    expect(result.body).toContain('This checkout is complete and cannot be paid again.');
    expect(result.body).not.toContain('<form');
    // The transaction no longer offers the checkout.
    const listed = (await h.call({ method: 'GET', url: `/api/v1/client/transactions?invoiceId=${invoiceId}`, token })).json().data[0];
    expect(listed).toMatchObject({ id: tx.id, status: 'APPROVED', checkoutUrl: null });
    // Pressing a button again (a stale tab) sends nothing.
    expect((await answer(path, 'outcome=fail')).statusCode).toBe(303);
    expect(await eventsOf(tx.id)).toHaveLength(1);
    expect(await statusOf(tx.id)).toBe('APPROVED');
  });

  it('Fail makes the payment ERROR and Cancel CANCELLED; neither pays, and each frees its amount', async () => {
    const { invoiceId, policyId, amount } = await invoiced(10);
    const failed = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    expect((await answer(pathOf(failed.checkoutUrl!), 'outcome=fail')).statusCode).toBe(303);
    expect(await statusOf(failed.id)).toBe('ERROR');
    expect((await openPage(pathOf(failed.checkoutUrl!))).body).toContain('Payment failed');
    const cancelled = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    expect(cancelled.amount).toBe(amount);
    expect((await answer(pathOf(cancelled.checkoutUrl!), 'outcome=cancel')).statusCode).toBe(303);
    expect(await statusOf(cancelled.id)).toBe('CANCELLED');
    expect((await openPage(pathOf(cancelled.checkoutUrl!))).body).toContain('Checkout cancelled');
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'UNPAID', amountPaid: 0 });
    expect(await policyState(policyId)).toBe('PROCESSING');
    // Paid at last (cover starts in 10 days): the policy waits INACTIVE.
    const third = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    await answer(pathOf(third.checkoutUrl!), 'outcome=pay');
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'FULLY_PAID' });
    expect(await policyState(policyId)).toBe('INACTIVE');
  });

  it('an expired checkout says so and its buttons send nothing', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 50 });
    h.clock.advance(31 * 60 * 1000);
    try {
      const page = await openPage(pathOf(tx.checkoutUrl!));
      expect(page.body).toContain('Checkout expired');
      expect(page.body).not.toContain('<form');
      expect((await answer(pathOf(tx.checkoutUrl!), 'outcome=pay')).statusCode).toBe(303);
      expect(await eventsOf(tx.id)).toEqual([]);
      expect(await statusOf(tx.id)).toBe('PENDING_PAYMENT');
    } finally {
      h.clock.advance(-31 * 60 * 1000);
    }
    await expectFiguresAgree(invoiceId);
  });

  it('takes only its form: a bad outcome or a repeated field is 400, JSON is 415, no body is 400', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 20 });
    const path = pathOf(tx.checkoutUrl!);
    const bad = await answer(path, 'outcome=steal');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('body.outcome must be one of: pay, fail, cancel');
    const twice = await answer(path, 'outcome=pay&outcome=fail');
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('body.outcome is given more than once');
    expect((await answer(path, 'outcome=pay&extra=1')).statusCode).toBe(400);
    const json = await answer(path, '{"outcome":"pay"}', 'application/json');
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await h.call({ method: 'POST', url: path, apiKey: null });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('body is required (send it as application/x-www-form-urlencoded)');
    expect(await statusOf(tx.id)).toBe('PENDING_PAYMENT');
    // Forms go nowhere else: a JSON operation sent a form answers 415 as before.
    const elsewhere = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'invoiceId=x' });
    expect(elsewhere.statusCode).toBe(415);
    await expectFiguresAgree(invoiceId);
  });
});

describe('receivePaymentWebhook: POST /webhooks/payments/{provider}', () => {
  it('refuses a missing, malformed or wrong signature with 401 and changes nothing', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const body = JSON.stringify(event(tx, 'checkout.completed'));
    // One signing time for every header below, read once: `t` and each v1 must be for the same second.
    const signedAt = h.clock.now();
    const t = Math.floor(signedAt.getTime() / 1000);
    const cases: Array<[string | null, string]> = [
      [null, 'MISSING_SIGNATURE'],
      ['nonsense', 'INVALID_SIGNATURE'],
      [`t=${t},v1=${'0'.repeat(64)}`, 'INVALID_SIGNATURE'],
      [signatureHeader('another-secret', body, signedAt), 'INVALID_SIGNATURE'],
      // Signed for another body (the amount changed on the way).
      [signatureHeader(h.config.paymentWebhookSecret, body.replace(`"amount":${tx.amount}`, '"amount":1'), signedAt), 'INVALID_SIGNATURE'],
    ];
    for (const [signature, code] of cases) {
      const res = await deliver(body, { signature });
      expect({ signature, status: res.statusCode, code: res.json().code }).toEqual({ signature, status: 401, code });
    }
    // Rotating secrets: one matching v1 among several is enough.
    const good = signatureHeader(h.config.paymentWebhookSecret, body, signedAt);
    expect(await eventsOf(tx.id)).toEqual([]);
    expect(await statusOf(tx.id)).toBe('PENDING_PAYMENT');
    const rotated = await deliver(body, { signature: `t=${t},v1=${'ab'.repeat(32)},${good.split(',')[1]}` });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ received: true, duplicate: false, outcome: 'settled', transactionStatus: 'APPROVED' });
    await expectFiguresAgree(invoiceId);
  });

  it('refuses a signature 6 minutes old or 6 minutes ahead, and takes one 4 minutes old', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const body = event(tx, 'checkout.completed');
    // The clock stopped on a whole second: the server reads the time the signatures are made from,
    // however slow the machine, and a header's whole-second `t` is exactly that time.
    h.clock.freeze(new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000).toISOString());
    const at = (minutes: number) => new Date(h.clock.now().getTime() + minutes * 60_000);
    const stale = await deliver(body, { at: at(-6) });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ code: 'SIGNATURE_EXPIRED', message: 'The Coverline-Signature timestamp is 360 seconds from now; at most 300 are allowed' });
    const ahead = await deliver(body, { at: at(6) });
    expect(ahead.statusCode).toBe(401);
    expect(ahead.json().code).toBe('SIGNATURE_EXPIRED');
    expect(await eventsOf(tx.id)).toEqual([]);
    const late = await deliver(body, { at: at(-4) });
    expect(late.statusCode).toBe(200);
    expect(await statusOf(tx.id)).toBe('APPROVED');
    await expectFiguresAgree(invoiceId);
  });

  it('settles once for an event delivered twice, again later, or ten times at once', async () => {
    const { invoiceId, policyId } = await invoiced(0);
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const body = event(tx, 'checkout.completed');
    const first = await deliver(body);
    expect(first.json()).toEqual({ received: true, duplicate: false, outcome: 'settled', transactionStatus: 'APPROVED' });
    const again = await deliver(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true, outcome: 'settled', transactionStatus: 'APPROVED' });
    // A retry an hour later is signed afresh by the provider: still the same event.
    h.clock.advance(3600_000);
    try {
      expect((await deliver(body)).json()).toMatchObject({ duplicate: true, transactionStatus: 'APPROVED' });
    } finally { h.clock.advance(-3600_000); }
    expect(await eventsOf(tx.id)).toHaveLength(1);
    expect((await movesOf(tx.id)).filter((m) => m.to_state === 'APPROVED')).toHaveLength(1);
    expect(await policyState(policyId)).toBe('ACTIVE');
    const received = await h.db.selectFrom('notifications').select('title').where('title', '=', `Payment ${tx.transactionNo} received`).execute();
    expect(received).toHaveLength(1);
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'FULLY_PAID' });

    const { invoiceId: second } = await invoiced();
    const tx2 = await pay({ invoiceId: second, paymentMethod: 'ONLINE' });
    const burst = event(tx2, 'checkout.completed');
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(burst)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    expect((await movesOf(tx2.id)).filter((m) => m.to_state === 'APPROVED')).toHaveLength(1);
    expect(await expectFiguresAgree(second)).toMatchObject({ status: 'FULLY_PAID' });
  });

  it('settles once when fifty different events about one payment arrive at once, in two waves, with no 500', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    // Distinct event ids (a provider retrying with new ids, a completion racing a failure): each
    // is recorded, one settles, the rest are ignored; none may deadlock into a 500.
    const events = Array.from({ length: 100 }, (_, i) => event(tx, i % 5 === 0 ? 'checkout.failed' : 'checkout.completed'));
    const answers = [...await Promise.all(events.slice(0, 50).map((e) => deliver(e))), ...await Promise.all(events.slice(50).map((e) => deliver(e)))];
    expect(answers.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
    const settling = answers.map((r, i) => (r.json().outcome === 'settled' ? events[i] : null)).filter(Boolean);
    expect(settling).toHaveLength(1);
    expect(await eventsOf(tx.id)).toHaveLength(100);
    expect((await movesOf(tx.id)).filter((m) => m.from_state !== null)).toHaveLength(1);
    // Whichever event came first decided: a completion paid the invoice, a failure left it unpaid.
    const completed = settling[0]!.type === 'checkout.completed';
    expect(await statusOf(tx.id)).toBe(completed ? 'APPROVED' : 'ERROR');
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: completed ? 'FULLY_PAID' : 'UNPAID' });
  });

  it('settles fifty payments of different invoices at once, each exactly once, with receipts in one unbroken series', async () => {
    const payments = [];
    for (let i = 0; i < 50; i += 1) {
      const { invoiceId } = await invoiced();
      payments.push({ invoiceId, tx: await pay({ invoiceId, paymentMethod: 'ONLINE' }) });
    }
    const answers = await Promise.all(payments.map(({ tx }) => deliver(event(tx, 'checkout.completed'))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(answers.every((r) => r.json().outcome === 'settled')).toBe(true);
    const receipts = await h.db.selectFrom('transactions').select('receipt_no').where('id', 'in', payments.map((p) => p.tx.id)).execute();
    expect(new Set(receipts.map((r) => r.receipt_no)).size).toBe(50);
    for (const { invoiceId } of payments.slice(0, 5)) expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'FULLY_PAID' });
  });

  it('ignores a late or out-of-order event for a settled payment, records it, and answers 200', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    expect((await deliver(event(tx, 'checkout.completed'))).json().outcome).toBe('settled');
    for (const type of ['checkout.failed', 'checkout.cancelled', 'checkout.completed'] as const) {
      const res = await deliver(event(tx, type));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: false, outcome: 'ignored', transactionStatus: 'APPROVED' });
    }
    expect((await eventsOf(tx.id)).map((e) => [e.type, e.outcome])).toEqual([
      ['checkout.completed', 'settled'], ['checkout.failed', 'ignored'], ['checkout.cancelled', 'ignored'], ['checkout.completed', 'ignored'],
    ]);
    expect(await statusOf(tx.id)).toBe('APPROVED');
    // The other way round: failed first, then a completed that arrived late, changes nothing either.
    const { invoiceId: other } = await invoiced();
    const tx2 = await pay({ invoiceId: other, paymentMethod: 'ONLINE' });
    expect((await deliver(event(tx2, 'checkout.failed'))).json().transactionStatus).toBe('ERROR');
    expect((await deliver(event(tx2, 'checkout.completed'))).json()).toMatchObject({ outcome: 'ignored', transactionStatus: 'ERROR' });
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'FULLY_PAID' });
    expect(await expectFiguresAgree(other)).toMatchObject({ status: 'UNPAID' });
  });

  it('re-checks the money: an amount or currency other than the payment\'s makes it ERROR, not paid', async () => {
    const { invoiceId, policyId } = await invoiced(0);
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const res = await deliver(event(tx, 'checkout.completed', { amount: new Decimal(tx.amount).minus(1).toNumber() }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false, outcome: 'amount_mismatch', transactionStatus: 'ERROR' });
    expect(await eventsOf(tx.id)).toEqual([expect.objectContaining({ outcome: 'amount_mismatch' })]);
    const note = await h.db.selectFrom('transaction_state_changes').select('notes').where('transaction_id', '=', tx.id).where('to_state', '=', 'ERROR').executeTakeFirstOrThrow();
    expect(note.notes).toMatch(/reported GHS \d+(\.\d+)?, not GHS \d+\.\d\d$/);
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'UNPAID', amountPaid: 0 });
    expect(await policyState(policyId)).toBe('PROCESSING');

    const tx2 = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    expect((await deliver(event(tx2, 'checkout.completed', { currency: 'USD' }))).json()).toMatchObject({ outcome: 'amount_mismatch', transactionStatus: 'ERROR' });
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'UNPAID' });
  });

  it('answers 404 for an unknown provider or payment, 400 for a body not in the event shape, 415 for a form', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 5 });
    const provider = await deliver(event(tx, 'checkout.completed'), { provider: 'stripe' });
    expect(provider.statusCode).toBe(404);
    expect(provider.json().message).toBe('Payment provider not found');
    const unknown = await deliver(event({ ...tx, id: '00000000-0000-4000-8000-000000000000' }, 'checkout.completed'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Payment not found');
    const shapeless = await deliver({ id: 'evt_1', type: 'checkout.refunded', created: 1, data: {} });
    expect(shapeless.statusCode).toBe(400);
    // Unsigned, a bad body learns nothing: the signature is checked first.
    expect((await deliver({ id: 'evt_1' }, { signature: null })).statusCode).toBe(401);
    const form = await h.call({ method: 'POST', url: '/api/v1/webhooks/payments/sandbox', apiKey: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'coverline-signature': signatureHeader(h.config.paymentWebhookSecret, 'a=1', h.clock.now()) }, payload: 'a=1' });
    expect(form.statusCode).toBe(415);
    expect(await statusOf(tx.id)).toBe('PENDING_PAYMENT');
    await expectFiguresAgree(invoiceId);
  });
});

describe('the sandbox mobile money prompt', () => {
  it('approved from an ordinary number: VERIFIED through the signed webhook, the invoice paid', async () => {
    const { invoiceId, policyId } = await invoiced(0);
    const tx = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', mobileNumber: '0244123456' });
    expect(tx.status).toBe('PENDING_VERIFICATION');
    // The client is told where the sandbox's phone is.
    const started = await h.db.selectFrom('notifications').select('body').where('title', '=', `Payment ${tx.transactionNo} started`).executeTakeFirstOrThrow();
    expect(started.body).toContain(`(Sandbox: the prompt is at ${h.config.publicBaseUrl}${promptPath(tx.id)}.)`);
    const page = await openPage(promptPath(tx.id));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<dd>0244123456</dd>');
    expect(page.body).toContain('name="outcome" value="approve"');
    expect(page.body).toContain('a number ending in 0000 always fails');
    // Awaiting verification, the money counts as paid, not approved.
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'UNPAID', amountUnapproved: tx.amount });
    const posted = await answer(promptPath(tx.id), 'outcome=approve');
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(promptPath(tx.id));
    expect(await statusOf(tx.id)).toBe('VERIFIED');
    expect(await eventsOf(tx.id)).toEqual([expect.objectContaining({ type: 'mobile_money.completed', outcome: 'settled' })]);
    expect((await openPage(promptPath(tx.id))).body).toContain('Payment approved');
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'FULLY_PAID', amountApproved: tx.amount });
    expect(await policyState(policyId)).toBe('ACTIVE');
  });

  it('a number ending in 0000 fails even when approved; a declined prompt fails; both ERROR', async () => {
    const { invoiceId } = await invoiced();
    const test = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 100, mobileNumber: '+233240000000' });
    expect((await answer(promptPath(test.id), 'outcome=approve')).statusCode).toBe(303);
    expect(await statusOf(test.id)).toBe('ERROR');
    expect(await eventsOf(test.id)).toEqual([expect.objectContaining({ type: 'mobile_money.failed', outcome: 'settled' })]);
    expect((await openPage(promptPath(test.id))).body).toContain('Payment failed');
    const declined = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 100, mobileNumber: '0244123456' });
    await answer(promptPath(declined.id), 'outcome=decline');
    expect(await statusOf(declined.id)).toBe('ERROR');
    // Answered, the prompt sends nothing more.
    await answer(promptPath(declined.id), 'outcome=approve');
    expect(await eventsOf(declined.id)).toHaveLength(1);
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'UNPAID', amountPaid: 0 });
    // The webhook maps a mobile money event onto the prompt's states (no CANCELLED there).
    const direct = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 100, mobileNumber: '0244123456' });
    expect((await deliver(event(direct, 'mobile_money.completed'))).json().transactionStatus).toBe('VERIFIED');
    expect(await expectFiguresAgree(invoiceId)).toMatchObject({ status: 'PARTIALLY_PAID', amountApproved: 100 });
  });
});
