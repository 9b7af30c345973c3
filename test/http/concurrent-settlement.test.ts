import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app/app.js';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';
import { signatureHeader } from '../../server/platform/payments/signature.js';
import { buyHomePolicy, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectFiguresAgree } from '../helpers/money.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Two servers over one database, each answering a burst of 50 requests at the same time as the
 * other: staff approving payments waiting for approval, and the payment provider delivering the
 * same signed events to both. Whatever the interleaving, no answer is a 5xx, and every payment is
 * settled exactly once: one APPROVED move, one receipt number, one "received" notification, and
 * its invoice paid by the sum of its payments once (FULLY_PAID, never OVERPAID). On PostgreSQL the
 * second server has its own connection pool, as a second process would.
 */

let h: Harness;
let second: FastifyInstance;
let secondDb: DatabaseHandle | undefined;
let client: { token: string };
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  secondDb = h.databaseUrl ? await openDatabase({ databaseUrl: h.databaseUrl, dataDir: 'memory://', poolSize: 20 }) : undefined;
  second = await buildApp({ config: h.config, db: secondDb?.db ?? h.db, clock: h.clock });
  await second.ready();
  client = await signUp(h);
  productId = await onlineProductId(h, 'HOME');
}, 600_000);
afterAll(async () => {
  await second.close();
  await secondDb?.close();
  await h.close();
});

/** Server 1 is the harness's app, server 2 the other one; both with the sandbox Api-Key. */
const servers = () => [h.app, second] as const;
const inject = (app: FastifyInstance, options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse> => {
  const { token, headers, ...rest } = options;
  return app.inject({ ...rest, headers: { 'api-key': h.apiKey, ...(token && { authorization: `Bearer ${token}` }), ...(headers as object) } });
};

interface Payment { id: string; transactionNo: string; invoiceId: string }

async function pay(invoiceId: string, paymentMethod: 'CASH' | 'ONLINE', amount: number): Promise<Payment> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: client.token, payload: { invoiceId, paymentMethod, amount } });
  expect({ status: res.statusCode, body: res.statusCode === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  const { id, transactionNo } = res.json().data;
  return { id, transactionNo, invoiceId };
}

/** A home policy's invoice (1 125.00: 450 000 x 0.25%), paid by two halves of 562.50 or in one payment. */
async function invoiceWith(paymentMethod: 'CASH' | 'ONLINE', parts: 1 | 2): Promise<{ invoiceId: string; amount: number; payments: Payment[] }> {
  const { invoiceId, amount } = await buyHomePolicy(h, client.token, productId, 0);
  expect(amount).toBe(1125);
  const payments: Payment[] = [];
  for (let i = 0; i < parts; i += 1) payments.push(await pay(invoiceId, paymentMethod, amount / parts));
  return { invoiceId, amount, payments };
}

/** Every 5xx among the answers, with its body. */
const serverErrors = (answers: LightMyRequestResponse[]) => answers.filter((r) => r.statusCode >= 500).map((r) => `${r.statusCode} ${r.body}`);

/** What each payment ended as: one APPROVED move, one receipt number (unique), one notification. */
async function expectSettledOnce(payments: Payment[], invoices: Array<{ invoiceId: string; amount: number }>) {
  const ids = payments.map((p) => p.id);
  const rows = await h.db.selectFrom('transactions').select(['id', 'status', 'receipt_no']).where('id', 'in', ids).execute();
  expect(rows.filter((r) => r.status !== 'APPROVED')).toEqual([]);
  expect(new Set(rows.map((r) => r.receipt_no)).size).toBe(payments.length);
  expect(rows.filter((r) => r.receipt_no === null)).toEqual([]);
  const moves = await h.db.selectFrom('transaction_state_changes').select(['transaction_id']).where('transaction_id', 'in', ids)
    .where('to_state', '=', 'APPROVED').execute();
  const movesPer = new Map<string, number>();
  for (const m of moves) movesPer.set(m.transaction_id, (movesPer.get(m.transaction_id) ?? 0) + 1);
  expect(ids.filter((id) => movesPer.get(id) !== 1)).toEqual([]);
  const titles = (await h.db.selectFrom('notifications').select('title').where('title', 'in', payments.map((p) => `Payment ${p.transactionNo} received`)).execute())
    .map((n) => n.title);
  expect(titles.sort()).toEqual(payments.map((p) => `Payment ${p.transactionNo} received`).sort());
  // The invoice's figures are the sums of its payments, once: paid in full, not a cent over.
  for (const { invoiceId, amount } of invoices) {
    const invoice = await expectFiguresAgree(h, client.token, invoiceId);
    expect({ status: invoice.status, amountPaid: invoice.amountPaid, amountApproved: invoice.amountApproved, amountUnpaid: invoice.amountUnpaid })
      .toEqual({ status: 'FULLY_PAID', amountPaid: amount, amountApproved: amount, amountUnpaid: 0 });
  }
}

describe('two servers, each approving 50 payments at once, 25 of them the same', () => {
  it('answers 200 or 409, never 5xx; each payment is approved once, its invoice paid once', async () => {
    // 25 invoices paid in two halves and 25 paid in one: 75 payments waiting for staff, ordered so
    // both runs reach halves of the same invoice and the 25 in the middle are approved by both.
    const invoices = [];
    const payments: Payment[] = [];
    for (let k = 0; k < 25; k += 1) {
      const halves = await invoiceWith('CASH', 2);
      const whole = await invoiceWith('CASH', 1);
      invoices.push(halves, whole);
      payments.push(halves.payments[0], whole.payments[0], halves.payments[1]);
    }
    const [one, two] = [payments.slice(0, 50), payments.slice(25, 75)];
    const [exec, headSales] = [(await staffSession(h, 'exec')).token, (await staffSession(h, 'head.sales')).token];
    const approve = (app: FastifyInstance, token: string, p: Payment) => inject(app, { method: 'POST', url: `/api/v1/staff/transactions/${p.id}/approve`, token });

    const [first, secondRun] = await Promise.all([
      Promise.all(one.map((p) => approve(servers()[0], exec, p))),
      Promise.all(two.map((p) => approve(servers()[1], headSales, p))),
    ]);
    const answers = [...first, ...secondRun];
    expect(serverErrors(answers)).toEqual([]);
    expect(answers.filter((r) => r.statusCode !== 200 && !(r.statusCode === 409 && r.json().code === 'INVALID_STATE_TRANSITION')).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    // Each payment: exactly one approval answered 200 (the 25 asked twice: the other one 409).
    const approvedBy = new Map<string, number>();
    [...one.map((p, i) => [p, first[i]] as const), ...two.map((p, i) => [p, secondRun[i]] as const)]
      .forEach(([p, r]) => { if (r.statusCode === 200) approvedBy.set(p.id, (approvedBy.get(p.id) ?? 0) + 1); });
    expect(payments.filter((p) => approvedBy.get(p.id) !== 1).map((p) => p.transactionNo)).toEqual([]);
    await expectSettledOnce(payments, invoices);
  }, 900_000);
});

describe('the provider delivering the same 50 events to two servers at once', () => {
  it('answers 200 to all 100, settles each payment once, and calls the second delivery of each event a duplicate', async () => {
    // 25 invoices paid online in two halves: 50 payments, each completed by one event that both
    // servers receive at the same moment (a provider retrying before the first answer came back).
    const invoices = [];
    const payments: Payment[] = [];
    for (let k = 0; k < 25; k += 1) {
      const halves = await invoiceWith('ONLINE', 2);
      invoices.push(halves);
      payments.push(...halves.payments);
    }
    const events = payments.map((p) => JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`, type: 'checkout.completed', created: Math.floor(h.clock.now().getTime() / 1000),
      data: { reference: `sbx_chk_${p.id}`, transactionId: p.id, amount: 562.5, currency: 'GHS' },
    }));
    const deliver = (app: FastifyInstance, raw: string) => app.inject({ method: 'POST', url: '/api/v1/webhooks/payments/sandbox', payload: raw,
      headers: { 'content-type': 'application/json', 'coverline-signature': signatureHeader(h.config.paymentWebhookSecret, raw, h.clock.now()) } });

    const [first, secondRun] = await Promise.all([
      Promise.all(events.map((raw) => deliver(servers()[0], raw))),
      Promise.all(events.map((raw) => deliver(servers()[1], raw))),
    ]);
    const answers = [...first, ...secondRun];
    expect(serverErrors(answers)).toEqual([]);
    expect(answers.filter((r) => r.statusCode !== 200).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    // Of each event's two deliveries, one settled the payment and the other was a duplicate.
    const pairs = events.map((_, i) => [first[i].json(), secondRun[i].json()].map((a) => `${a.duplicate ? 'duplicate' : a.outcome}`).sort().join(' + '));
    expect(pairs).toEqual(Array(50).fill('duplicate + settled'));
    const recorded = await h.db.selectFrom('payment_events').select('transaction_id').where('transaction_id', 'in', payments.map((p) => p.id)).execute();
    expect(recorded).toHaveLength(50);
    await expectSettledOnce(payments, invoices);
  }, 900_000);
});
