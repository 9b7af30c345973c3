import { sql } from 'kysely';
import { Decimal } from 'decimal.js';
import type { TransactionStatus } from '../../server/platform/db/schema.js';
import { raiseDueDebits } from '../../server/domain/money/due-debits.js';
import { DUE_DEBITS_QUEUE, jobHandlers, RECURRING } from '../../server/app/jobs.js';
import { backoffMs, claim, complete, enqueue, fail, purgeFinished } from '../../server/platform/jobs/queue.js';
import { createWorker, slotKey } from '../../server/platform/jobs/worker.js';
import { sandboxProvider, type PaymentProvider } from '../../server/platform/payments/provider.js';
import { settlePayment } from '../../server/domain/money/payments.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let token: string;
let phone: string;
let otherToken: string;
let otherTenant: { token: string; apiKey: string };
let productId: string;

/** Mobile money prompts the provider was asked for; wallets ending in 9999 are unreachable. */
const prompts: Array<{ transactionId: string; mobileNumber: string; amount: string }> = [];
const payments: PaymentProvider = {
  // Webhook checks as the sandbox's; the two calls recorded here.
  ...sandboxProvider({ publicBaseUrl: 'http://localhost:3000', paymentWebhookSecret: 'direct-debit-tests' }),
  name: 'sandbox',
  async startCheckout(payment) {
    return { reference: `sbx_chk_${payment.transactionId}`, checkoutUrl: `http://localhost:3000/api/v1/sandbox/checkout/sbx_chk_${payment.transactionId}` };
  },
  async requestMobileMoney(payment) {
    if (payment.mobileNumber.endsWith('9999')) throw new Error(`wallet ${payment.mobileNumber} unreachable`);
    prompts.push({ transactionId: payment.transactionId, mobileNumber: payment.mobileNumber, amount: payment.amount });
    return { reference: `sbx_momo_${payment.transactionId}` };
  },
};

const DAY = 86_400_000;
const today = plusDays(0);

beforeAll(async () => {
  h = await createHarness({}, { payments });
  const signed = await signUp(h);
  token = signed.token;
  phone = signed.account.phoneNumber;
  otherToken = (await signUp(h, individualBody())).token;
  otherTenant = { token: (await signUp(h, individualBody(), h.otherApiKey)).token, apiKey: h.otherApiKey };
  productId = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });
// Tests move the clock to due dates; each starts from the real time again, and no mandate of an
// earlier test is left for the job to debit.
afterEach(async () => {
  h.clock.set(new Date().toISOString());
  await h.db.updateTable('direct_debits').set({ status: 'CANCELLED', next_debit_date: null, cancelled_at: new Date(), cancel_reason: 'Test over' })
    .where('status', '=', 'ACTIVE').execute();
});

/** Who calls: a bearer token, with its tenant's Api-Key when it is not the sandbox one. */
type Caller = string | { token: string; apiKey: string };
const auth = (as: Caller) => (typeof as === 'string' ? { token: as } : as);
const base = '/api/v1/client/direct-debits';
const create = (body: Record<string, unknown>, as: Caller = token) => h.call({ method: 'POST', url: base, ...auth(as), payload: body });
const list = (query = '', as: Caller = token) => h.call({ method: 'GET', url: `${base}${query}`, ...auth(as) });
const get = (id: string, as: Caller = token) => h.call({ method: 'GET', url: `${base}/${id}`, ...auth(as) });
const cancel = (id: string, body: unknown, as: Caller = token) => h.call({ method: 'POST', url: `${base}/${id}/cancel`, ...auth(as), payload: body as object });
const policyOf = async (id: string, as: Caller = token) => (await h.call({ method: 'GET', url: `/api/v1/client/policies/${id}`, ...auth(as) })).json().data;

/** A new home policy of the client's, PROCESSING with its invoice; cover from `startDays` after today. */
async function invoiced(as: Caller = token, startDays = 10) {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', ...auth(as), payload: {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(startDays), endDate: plusDays(startDays + 364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { id: policy.id as string, policyNo: policy.policyNo as string, premium: policy.premium as number, invoiceId: policy.invoice.id as string,
    invoiceNo: policy.invoice.invoiceNo as string, amount: policy.invoice.amount as number, endDate: policy.endDate as string };
}

/** A mandate set up through the API (201 expected). */
async function mandate(body: Record<string, unknown>, as: Caller = token) {
  const res = await create(body, as);
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

/** The job, as the worker runs it, at the harness clock's time. */
const runJob = () => raiseDueDebits(h.app.services, h.clock.now());
/** The clock at 06:00 UTC on a day. */
const at = (date: string) => h.clock.set(`${date}T06:00:00Z`);
/** The provider or staff deciding a payment (their calls come with later issues; the rule is the same). */
const decide = (transactionId: string, to: TransactionStatus, by: 'staff' | 'provider' = 'provider') =>
  new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope, { transactionId, to, actor: { by, id: null }, at: h.clock.now() }));
const debitsOf = (directDebitId: string) => h.db.selectFrom('transactions').selectAll().where('direct_debit_id', '=', directDebitId)
  .orderBy('created_at').orderBy('transaction_no').execute();
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

describe('createDirectDebit: POST /client/direct-debits', () => {
  it('sets up a mandate: ACTIVE, due first on startDate, the premium from the account\'s phone; the policy AWAITING_DEBIT', async () => {
    const policy = await invoiced();
    const res = await create({ policyId: policy.id, startDate: plusDays(3), frequency: 'MONTHLY' });
    expect(res.statusCode).toBe(201);
    const debit = res.json().data;
    expect(debit).toEqual({
      id: expect.any(String), status: 'ACTIVE', policyId: policy.id,
      policy: { id: policy.id, policyNo: policy.policyNo, policyType: 'HOME', state: 'AWAITING_DEBIT', premium: policy.premium, currency: 'GHS' },
      invoice: { id: policy.invoiceId, invoiceNo: policy.invoiceNo, currency: 'GHS', amount: policy.amount, amountPaid: 0, amountUnpaid: policy.amount,
        status: 'UNPAID', isClosed: false },
      amount: policy.premium, currency: 'GHS', frequency: 'MONTHLY', startDate: plusDays(3), endDate: null, nextDebitDate: plusDays(3),
      paymentMethod: 'MOBILE_MONEY', mobileNumber: phone, description: null, cancelReason: null, cancelledAt: null, completedAt: null,
      completionReason: null, createdAt: expect.any(String), updatedAt: expect.any(String), history: [],
    });
    expect((await policyOf(policy.id)).state).toBe('AWAITING_DEBIT');
    const moves = await h.db.selectFrom('policy_state_changes').select(['from_state', 'to_state', 'actor_kind', 'notes'])
      .where('policy_id', '=', policy.id).orderBy('created_at').execute();
    expect(moves.at(-1)).toEqual({ from_state: 'PROCESSING', to_state: 'AWAITING_DEBIT', actor_kind: 'system', notes: 'Direct debit set up' });
    const note = await h.db.selectFrom('notifications').select(['title', 'entity']).where('title', '=', `Direct debit for policy ${policy.policyNo} set up`)
      .executeTakeFirstOrThrow();
    expect(note.entity).toEqual({ name: 'directDebit', id: debit.id });
  });

  it('takes the amount, endDate, description and wallet sent; amount 0 is the premium', async () => {
    const policy = await invoiced();
    const debit = await mandate({ policyId: policy.id, startDate: today, endDate: plusDays(90), frequency: 'WEEKLY', amount: 120.5,
      description: 'Weekly instalments', mobileNumber: '0244123456' });
    expect(debit).toMatchObject({ amount: 120.5, endDate: plusDays(90), nextDebitDate: today, description: 'Weekly instalments', mobileNumber: '0244123456' });
    const other = await invoiced();
    expect((await mandate({ policyId: other.id, startDate: today, frequency: 'YEARLY', amount: 0 })).amount).toBe(other.premium);
  });

  it('answers 400 naming the field for each broken rule, and writes nothing', async () => {
    const policy = await invoiced();
    const body = { policyId: policy.id, startDate: plusDays(1), frequency: 'MONTHLY' };
    const message = async (sent: Record<string, unknown>, as: Caller = token) => {
      const res = await create(sent, as);
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    for (const field of ['policyId', 'startDate', 'frequency'] as const) {
      const { [field]: _dropped, ...rest } = body;
      expect(await message(rest)).toBe(`body.${field} is required`);
    }
    expect(await message({ ...body, frequency: 'FORTNIGHTLY' })).toBe('body.frequency must be one of: DAILY, WEEKLY, MONTHLY, QUARTERLY, HALF_YEARLY, YEARLY');
    expect(await message({ ...body, amount: -1 })).toBe('body.amount must be >= 0');
    expect(await message({ ...body, amount: 10.005 })).toBe('body.amount must be multiple of 0.01');
    expect(await message({ ...body, startDate: plusDays(-1) })).toBe(`body.startDate must not be in the past (today is ${today})`);
    expect(await message({ ...body, endDate: plusDays(0) })).toBe('body.endDate must be on or after body.startDate');
    expect(await message({ ...body, startDate: addDays(policy.endDate, 1) })).toBe(`body.startDate must not be after the policy's endDate (${policy.endDate})`);
    expect(await message({ ...body, startDate: '2026-02-30' })).toMatch(/^body\.startDate must match format "date"/);
    expect(await message({ ...body, mobileNumber: '12ab' })).toMatch(/^body\.mobileNumber must match pattern/);
    expect(await message({ ...body, paymentMethod: 'CASH' })).toBe("body has an unknown property 'paymentMethod'");
    expect(await message({ ...body, policyId: 'not-a-uuid' })).toBe('body.policyId must match format "uuid"');
    // A client signed up by email only has no phone to debit: the wallet must be named.
    const { phoneNumber: _phone, ...emailOnly } = individualBody();
    const noPhone = (await signUp(h, emailOnly)).token;
    const theirs = await invoiced(noPhone);
    expect(await message({ policyId: theirs.id, startDate: today, frequency: 'MONTHLY' }, noPhone))
      .toBe('body.mobileNumber is required: the account has no phone number to debit');
    expect((await create({ policyId: theirs.id, startDate: today, frequency: 'MONTHLY', mobileNumber: '+233244000111' }, noPhone)).statusCode).toBe(201);
    expect(await h.db.selectFrom('direct_debits').select('id').where('policy_id', '=', policy.id).execute()).toEqual([]);
    expect((await policyOf(policy.id)).state).toBe('PROCESSING');
  });

  it('answers 404 for another client\'s or tenant\'s policy, and writes nothing', async () => {
    const policy = await invoiced();
    const body = { policyId: policy.id, startDate: today, frequency: 'MONTHLY' };
    for (const as of [otherToken, otherTenant]) {
      const res = await create(body, as);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Policy not found', code: 'NOT_FOUND' });
    }
    expect(await h.db.selectFrom('direct_debits').select('id').where('policy_id', '=', policy.id).execute()).toEqual([]);
    expect((await policyOf(policy.id)).state).toBe('PROCESSING');
  });

  it('allows one ACTIVE mandate per policy, even when ten requests arrive at once; after a cancel, a new one', async () => {
    const policy = await invoiced();
    const body = { policyId: policy.id, startDate: today, frequency: 'MONTHLY', amount: 100 };
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(body)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const refused of answers.filter((r) => r.statusCode === 409)) {
      expect(refused.json()).toMatchObject({ code: 'DIRECT_DEBIT_ACTIVE', message: `Policy ${policy.policyNo} already has an active direct debit; cancel it first` });
    }
    const first = answers.find((r) => r.statusCode === 201)!.json().data;
    expect((await cancel(first.id, { reason: 'Changing to a weekly debit' })).statusCode).toBe(200);
    // The policy stays AWAITING_DEBIT, and takes a new mandate.
    const second = await mandate({ ...body, frequency: 'WEEKLY' });
    expect(second.policy.state).toBe('AWAITING_DEBIT');
    expect((await list(`?policyId=${policy.id}`)).json().data.map((d: { id: string; status: string }) => [d.id, d.status]))
      .toEqual([[second.id, 'ACTIVE'], [first.id, 'CANCELLED']]);
  });

  it('answers 409 for a policy in a state that takes no mandate, and for an invoice with nothing left to pay', async () => {
    const active = await invoiced();
    await h.db.updateTable('policies').set({ state: 'ACTIVE' }).where('id', '=', active.id).execute();
    const res = await create({ policyId: active.id, startDate: today, frequency: 'MONTHLY' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NOT_DEBITABLE',
      message: `Policy ${active.policyNo} is ACTIVE; a direct debit can be set up only while it is PROCESSING or AWAITING_DEBIT` });

    const paid = await invoiced();
    // Cash recorded for the whole invoice, awaiting approval: nothing is left to debit.
    expect((await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId: paid.invoiceId, paymentMethod: 'CASH' } }))
      .statusCode).toBe(201);
    const settled = await create({ policyId: paid.id, startDate: today, frequency: 'MONTHLY' });
    expect(settled.statusCode).toBe(409);
    expect(settled.json()).toMatchObject({ code: 'INVOICE_SETTLED' });
    expect(settled.json().message).toMatch(new RegExp(`^Invoice ${paid.invoiceNo} has nothing left to pay`));
  });
});

describe('listDirectDebits, getDirectDebit: GET /client/direct-debits, GET /client/direct-debits/{id}', () => {
  it('lists the client\'s mandates newest first, filtered by policyId; other clients and tenants see none', async () => {
    const a = await invoiced();
    const b = await invoiced();
    const da = await mandate({ policyId: a.id, startDate: today, frequency: 'MONTHLY', amount: 50 });
    h.clock.advance(1000);
    const db = await mandate({ policyId: b.id, startDate: today, frequency: 'DAILY', amount: 10 });
    const ids = async (query: string, as: Caller = token) => (await list(query, as)).json().data.map((d: { id: string }) => d.id);
    const all = await ids('?limit=500');
    expect(all.indexOf(db.id)).toBeLessThan(all.indexOf(da.id));
    expect(await ids(`?policyId=${a.id}`)).toEqual([da.id]);
    const page = (await list(`?policyId=${b.id}&limit=1&page=1`)).json();
    expect(page.paginator).toMatchObject({ itemsCount: 1, page: 1, limit: 1, pageCount: 1, hasNextPage: false });
    expect(page.data[0]).not.toHaveProperty('history');
    expect(await ids('?limit=500', otherToken)).toEqual([]);
    expect(await ids('?limit=500', otherTenant)).toEqual([]);
    expect(await ids(`?policyId=${a.id}`, otherToken)).toEqual([]);
    const bad = await list('?policyId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('query.policyId must match format "uuid"');
  });

  it('gets one mandate with its history; another client\'s or tenant\'s id is 404; a malformed id 400', async () => {
    const policy = await invoiced();
    const debit = await mandate({ policyId: policy.id, startDate: today, frequency: 'MONTHLY', amount: 50 });
    const res = await get(debit.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(debit);
    for (const as of [otherToken, otherTenant]) {
      const other = await get(debit.id, as);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ message: 'Direct debit not found', code: 'NOT_FOUND' });
    }
    expect((await get('5b8e2f14-3c9a-4d7e-8f1b-2a3c4d5e6f70')).statusCode).toBe(404);
    const bad = await get('not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('params.id must match format "uuid"');
  });
});

describe('cancelDirectDebit: POST /client/direct-debits/{id}/cancel', () => {
  it('cancels an ACTIVE mandate with its reason and time; a second cancel is 409; no debit is raised after', async () => {
    const policy = await invoiced();
    const debit = await mandate({ policyId: policy.id, startDate: plusDays(1), frequency: 'DAILY', amount: 25 });
    const before = h.clock.now().getTime();
    const res = await cancel(debit.id, { reason: 'I will pay at the branch' });
    const after = h.clock.now().getTime();
    expect(res.statusCode).toBe(200);
    const cancelled = res.json().data;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelReason: 'I will pay at the branch', nextDebitDate: null, completedAt: null, history: [] });
    expect(Date.parse(cancelled.cancelledAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(cancelled.cancelledAt)).toBeLessThanOrEqual(after);
    expect((await get(debit.id)).json().data).toEqual(cancelled);
    const again = await cancel(debit.id, { reason: 'Once more, please' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DIRECT_DEBIT_ENDED',
      message: `The direct debit on policy ${policy.policyNo} is CANCELLED; only an ACTIVE one can be cancelled` });
    at(plusDays(5));
    await runJob();
    expect(await debitsOf(debit.id)).toEqual([]);
    expect((await policyOf(policy.id)).state).toBe('AWAITING_DEBIT');
  });

  it('refuses a reason under 5 characters or none (400 naming it); another client\'s or tenant\'s id is 404 and changes nothing', async () => {
    const policy = await invoiced();
    const debit = await mandate({ policyId: policy.id, startDate: today, frequency: 'MONTHLY', amount: 50 });
    const short = await cancel(debit.id, { reason: 'nah' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('body.reason must NOT have fewer than 5 characters');
    const none = await cancel(debit.id, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('body.reason is required');
    const extra = await cancel(debit.id, { reason: 'Moving abroad', when: 'now' });
    expect(extra.json().message).toBe("body has an unknown property 'when'");
    for (const as of [otherToken, otherTenant]) {
      const res = await cancel(debit.id, { reason: 'Not mine to cancel' }, as);
      expect(res.statusCode).toBe(404);
    }
    expect((await get(debit.id)).json().data).toEqual(debit);
  });
});

describe('the due-debit job', () => {
  it('raises a due debit once: a MOBILE_MONEY payment awaiting verification, the prompt sent, the next date set, the history shown', async () => {
    const policy = await invoiced();
    const start = plusDays(1);
    const debit = await mandate({ policyId: policy.id, startDate: start, frequency: 'MONTHLY', amount: 500, mobileNumber: '0244123456',
      description: 'Monthly home premium' });
    expect((await runJob()).raised).toBe(0); // not due yet
    expect(await debitsOf(debit.id)).toEqual([]);

    at(start);
    const before = prompts.length;
    const report = await runJob();
    expect(report).toMatchObject({ raised: 1, failed: [] });
    const [tx] = await debitsOf(debit.id);
    expect(tx).toMatchObject({ invoice_id: policy.invoiceId, policy_id: policy.id, payment_method: 'MOBILE_MONEY', status: 'PENDING_VERIFICATION',
      amount: '500.00', currency: 'GHS', mobile_number: '0244123456', description: 'Monthly home premium', date_received: start,
      provider: 'sandbox', provider_reference: `sbx_momo_${tx.id}` });
    expect(prompts.slice(before)).toEqual([{ transactionId: tx.id, mobileNumber: '0244123456', amount: '500.00' }]);

    const now = (await get(debit.id)).json().data;
    expect(now).toMatchObject({ status: 'ACTIVE', nextDebitDate: addMonth(start),
      invoice: { amountPaid: 500, amountUnpaid: new Decimal(policy.amount).minus(500).toNumber(), status: 'UNPAID' } });
    expect(now.history).toEqual([{ dueDate: start, outcome: 'RAISED', amount: 500, note: null, createdAt: expect.any(String),
      transaction: { id: tx.id, transactionNo: tx.transaction_no, status: 'PENDING_VERIFICATION', amount: 500 } }]);
    // The payment shows in the client's payments, and the client heard of it.
    const listed = (await h.call({ method: 'GET', url: `/api/v1/client/transactions?invoiceId=${policy.invoiceId}`, token })).json().data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([tx.id]);
    expect(await h.db.selectFrom('notifications').select('title').where('title', '=', `Direct debit ${tx.transaction_no} raised`).execute()).toHaveLength(1);

    // Run again the same day (or later the same month): nothing more.
    expect((await runJob()).raised).toBe(0);
    at(addDays(start, 20));
    expect((await runJob()).raised).toBe(0);
    expect(await debitsOf(debit.id)).toHaveLength(1);
    expect(prompts.length).toBe(before + 1);

    // Verified, the history shows it.
    await decide(tx.id, 'VERIFIED');
    expect((await get(debit.id)).json().data.history[0].transaction.status).toBe('VERIFIED');
  });

  it('raises each due debit once when run concurrently, as several instances would', async () => {
    const start = plusDays(1);
    const debits = [];
    for (let i = 0; i < 4; i += 1) {
      const policy = await invoiced();
      debits.push(await mandate({ policyId: policy.id, startDate: start, frequency: 'WEEKLY', amount: 40 }));
    }
    at(addDays(start, 7)); // two due dates each
    const reports = await Promise.all([runJob(), runJob(), runJob()]);
    expect(reports.flatMap((r) => r.failed)).toEqual([]);
    expect(reports.reduce((sum, r) => sum + r.raised, 0)).toBe(8);
    for (const debit of debits) {
      const raised = await debitsOf(debit.id);
      expect(raised.map((t) => t.amount)).toEqual(['40.00', '40.00']);
      const runs = await h.db.selectFrom('direct_debit_runs').select(['due_date', 'transaction_id']).where('direct_debit_id', '=', debit.id)
        .orderBy('due_date').execute();
      expect(runs).toEqual([{ due_date: start, transaction_id: raised[0].id }, { due_date: addDays(start, 7), transaction_id: raised[1].id }]);
      expect((await get(debit.id)).json().data.nextDebitDate).toBe(addDays(start, 14));
    }
  });

  it('catches up missed due dates oldest first, never beyond what the invoice owes, retries a failed debit, and completes once paid', async () => {
    const policy = await invoiced(token, 10);
    const instalment = new Decimal(policy.amount).mul(0.4).toDecimalPlaces(2).toNumber();
    const start = plusDays(1);
    const debit = await mandate({ policyId: policy.id, startDate: start, frequency: 'WEEKLY', amount: instalment });
    at(addDays(start, 21)); // four due dates: three debits cover the invoice, the fourth finds nothing left
    expect(await runJob()).toMatchObject({ raised: 3, skipped: 1, failed: [] });
    let txs = await debitsOf(debit.id);
    const last = new Decimal(policy.amount).minus(new Decimal(instalment).mul(2)).toFixed(2);
    expect(txs.map((t) => t.amount)).toEqual([instalment.toFixed(2), instalment.toFixed(2), last]);
    let view = (await get(debit.id)).json().data;
    expect(view.history.map((r: { dueDate: string; outcome: string; amount: number }) => [r.dueDate, r.outcome, r.amount])).toEqual([
      [start, 'RAISED', instalment], [addDays(start, 7), 'RAISED', instalment], [addDays(start, 14), 'RAISED', Number(last)],
      [addDays(start, 21), 'SKIPPED', 0],
    ]);
    expect(view.history[3]).toMatchObject({ transaction: null, note: expect.stringMatching(/^Nothing debited: payments awaiting confirmation/) });
    expect(view).toMatchObject({ status: 'ACTIVE', nextDebitDate: addDays(start, 28), invoice: { amountUnpaid: 0, status: 'UNPAID' } });

    // Two debits are paid, the third fails at the provider: the next due date takes it again.
    await decide(txs[0].id, 'VERIFIED');
    await decide(txs[1].id, 'VERIFIED');
    await decide(txs[2].id, 'ERROR');
    at(addDays(start, 28));
    expect(await runJob()).toMatchObject({ raised: 1, failed: [] });
    txs = await debitsOf(debit.id);
    expect(txs.map((t) => [t.amount, t.status])).toEqual([[instalment.toFixed(2), 'VERIFIED'], [instalment.toFixed(2), 'VERIFIED'],
      [last, 'ERROR'], [last, 'PENDING_VERIFICATION']]);
    expect((await policyOf(policy.id)).state).toBe('AWAITING_DEBIT');

    // Paid in full: the mandate completes and the policy is in force (its cover started meanwhile).
    await decide(txs[3].id, 'VERIFIED');
    view = (await get(debit.id)).json().data;
    expect(view).toMatchObject({ status: 'COMPLETED', nextDebitDate: null, completionReason: `Invoice ${policy.invoiceNo} paid in full`,
      invoice: { amountUnpaid: 0, status: 'FULLY_PAID', isClosed: true } });
    expect((await policyOf(policy.id)).state).toBe('ACTIVE');
    at(addDays(start, 60));
    expect((await runJob()).raised).toBe(0);
    expect(await debitsOf(debit.id)).toHaveLength(4);
  });

  it('stops at endDate: the last due date on or before it is debited, then the mandate is COMPLETED', async () => {
    const policy = await invoiced();
    const start = plusDays(1);
    const debit = await mandate({ policyId: policy.id, startDate: start, endDate: addDays(start, 2), frequency: 'DAILY', amount: 10 });
    at(addDays(start, 10));
    expect(await runJob()).toMatchObject({ raised: 3, completed: 1 });
    const view = (await get(debit.id)).json().data;
    expect(view).toMatchObject({ status: 'COMPLETED', nextDebitDate: null, cancelReason: null,
      completionReason: `Its last due date on or before its endDate (${addDays(start, 2)}) was debited` });
    expect(view.history.map((r: { dueDate: string }) => r.dueDate)).toEqual([start, addDays(start, 1), addDays(start, 2)]);
    expect((await runJob()).raised).toBe(0);
    const again = await cancel(debit.id, { reason: 'Too late for this' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/is COMPLETED; only an ACTIVE one can be cancelled$/);
  });

  it('keeps month ends from drifting: monthly from the 31st falls on each month\'s last day, and the 31st again', async () => {
    const { dueDate } = await import('../../server/domain/money/direct-debits.js');
    expect([0, 1, 2, 3].map((n) => dueDate('2027-01-31', 'MONTHLY', n))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect([1, 2].map((n) => dueDate('2027-08-31', 'HALF_YEARLY', n))).toEqual(['2028-02-29', '2028-08-31']);
    expect(dueDate('2027-11-30', 'QUARTERLY', 1)).toBe('2028-02-29');
    expect(dueDate('2028-02-29', 'YEARLY', 1)).toBe('2029-02-28');
    expect(dueDate('2027-12-29', 'WEEKLY', 1)).toBe('2028-01-05');
  });

  it('completes the mandate when the invoice is paid another way, and moves the AWAITING_DEBIT policy on', async () => {
    const policy = await invoiced(token, 10);
    const debit = await mandate({ policyId: policy.id, startDate: plusDays(5), frequency: 'MONTHLY', amount: 100 });
    const cash = (await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId: policy.invoiceId, paymentMethod: 'CASH' } }))
      .json().data;
    await decide(cash.id, 'APPROVED', 'staff');
    expect((await get(debit.id)).json().data).toMatchObject({ status: 'COMPLETED', nextDebitDate: null, completionReason: `Invoice ${policy.invoiceNo} paid in full` });
    // Cover starts in 10 days: paid, it waits INACTIVE until then.
    expect((await policyOf(policy.id)).state).toBe('INACTIVE');
    at(plusDays(40));
    expect((await runJob()).raised).toBe(0);
    expect(await debitsOf(debit.id)).toEqual([]);
  });

  it('stops the mandate of a policy that ended, saying why', async () => {
    const policy = await invoiced();
    const debit = await mandate({ policyId: policy.id, startDate: plusDays(1), frequency: 'MONTHLY', amount: 100 });
    await h.db.updateTable('policies').set({ state: 'CANCELLED' }).where('id', '=', policy.id).execute();
    at(plusDays(1));
    expect((await runJob()).cancelled).toBeGreaterThanOrEqual(1);
    expect((await get(debit.id)).json().data).toMatchObject({ status: 'CANCELLED', nextDebitDate: null,
      cancelReason: `Policy ${policy.policyNo} is CANCELLED: nothing more is debited for it` });
    expect(await debitsOf(debit.id)).toEqual([]);
  });

  it('rolls back a mandate whose prompt fails: nothing raised, tried again on the next run; the queued job fails and is retried', async () => {
    const policy = await invoiced();
    const start = plusDays(1);
    const debit = await mandate({ policyId: policy.id, startDate: start, frequency: 'MONTHLY', amount: 100, mobileNumber: '0244999999' });
    at(start);
    const report = await runJob();
    expect(report.failed).toEqual([{ directDebitId: debit.id, error: 'wallet 0244999999 unreachable' }]);
    expect(await debitsOf(debit.id)).toEqual([]);
    expect(await h.db.selectFrom('direct_debit_runs').select('id').where('direct_debit_id', '=', debit.id).execute()).toEqual([]);
    expect((await get(debit.id)).json().data).toMatchObject({ status: 'ACTIVE', nextDebitDate: start, history: [] });

    // Through the queue: the job fails, and is due again after its backoff.
    const worker = createWorker({ db: h.db, clock: h.clock, handlers: jobHandlers(h.app.services), intervalMs: 60_000, workerId: 'test-failing' });
    h.clock.freeze(); // the backoff is counted from the failure's time, which the test reads below
    const { id } = await enqueue(h.db, { queue: DUE_DEBITS_QUEUE, dedupeKey: `test-retry-${debit.id}`, maxAttempts: 3 }, h.clock.now());
    expect(await worker.tick()).toBeGreaterThanOrEqual(1);
    const job = await h.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 1, done_at: null, failed_at: null, locked_by: null });
    expect(job.last_error).toContain('wallet 0244999999 unreachable');
    expect(new Date(job.run_at).getTime()).toBe(h.clock.now().getTime() + backoffMs(1));

    // The wallet fixed, the retry raises it.
    await h.db.updateTable('direct_debits').set({ mobile_number: '0244123456' }).where('id', '=', debit.id).execute();
    h.clock.advance(backoffMs(1) + 1000);
    await worker.tick();
    expect((await h.db.selectFrom('jobs').select(['done_at', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow()).attempts).toBe(2);
    expect((await h.db.selectFrom('jobs').select('done_at').where('id', '=', id).executeTakeFirstOrThrow()).done_at).not.toBeNull();
    expect(await debitsOf(debit.id)).toHaveLength(1);
  });
});

/** The Nth month after a YYYY-MM-DD date, as the job counts it. */
function addMonth(date: string) {
  const d = new Date(`${date}T00:00:00Z`);
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(d.getUTCDate(), last));
  return next.toISOString().slice(0, 10);
}

describe('the job queue', () => {
  const q = (name: string) => `test.${name}.${Math.random().toString(36).slice(2, 8)}`;
  const jobsOf = (queue: string) => h.db.selectFrom('jobs').selectAll().where('queue', '=', queue).orderBy('created_at').execute();

  it('enqueues a job once per dedupe key, however many times it is asked', async () => {
    const queue = q('dedupe');
    const now = h.clock.now();
    const answers = await Promise.all(Array.from({ length: 8 }, () => enqueue(h.db, { queue, dedupeKey: `${queue}@slot`, payload: { n: 1 } }, now)));
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(await jobsOf(queue)).toHaveLength(1);
    // Without a key, every enqueue is a job.
    await enqueue(h.db, { queue }, now);
    await enqueue(h.db, { queue }, now);
    expect(await jobsOf(queue)).toHaveLength(3);
  });

  it('claims ready jobs only, each for one worker, until its lease ends', async () => {
    const queue = q('lease');
    const now = h.clock.now();
    await enqueue(h.db, { queue, payload: { n: 1 }, runAt: new Date(now.getTime() - 2) }, now);
    await enqueue(h.db, { queue, payload: { n: 2 }, runAt: new Date(now.getTime() - 1) }, now);
    await enqueue(h.db, { queue, payload: { n: 3 }, runAt: new Date(now.getTime() + 3_600_000) }, now);
    const first = await claim(h.db, { queues: [queue], workerId: 'w1', limit: 10, leaseMs: 60_000 }, now);
    expect(first.map((j) => [j.payload, j.attempts, j.locked_by])).toEqual([[{ n: 1 }, 1, 'w1'], [{ n: 2 }, 1, 'w1']]);
    expect(await claim(h.db, { queues: [queue], workerId: 'w2', limit: 10 }, now)).toEqual([]);
    // w1 died holding them: once the lease ends, w2 takes them (another attempt each); w1's late complete is refused.
    const later = new Date(now.getTime() + 61_000);
    const taken = await claim(h.db, { queues: [queue], workerId: 'w2', limit: 10 }, later);
    expect(taken.map((j) => [j.payload, j.attempts, j.locked_by])).toEqual([[{ n: 1 }, 2, 'w2'], [{ n: 2 }, 2, 'w2']]);
    expect(await complete(h.db, first[0], 'w1', later)).toBe(false);
    expect(await complete(h.db, taken[0], 'w2', later)).toBe(true);
    expect(await complete(h.db, taken[1], 'w2', later)).toBe(true);
    expect(await claim(h.db, { queues: [queue], workerId: 'w3', limit: 10 }, new Date(now.getTime() + 3_600_000))).toHaveLength(1);
  });

  it('gives every job to exactly one of many concurrent claimers', async () => {
    const queue = q('race');
    const now = h.clock.now();
    for (let i = 0; i < 10; i += 1) await enqueue(h.db, { queue, payload: { i } }, now);
    const claims = await Promise.all(Array.from({ length: 20 }, (_, w) => claim(h.db, { queues: [queue], workerId: `w${w}`, limit: 1 }, now)));
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });

  // PGlite is one session: a second claimer cannot run while a transaction holds it, so there
  // is nothing to skip. On PostgreSQL the second claim runs on another connection meanwhile.
  (process.env.DATABASE_URL ? it : it.skip)('skips, without waiting, the rows another worker is claiming (FOR UPDATE SKIP LOCKED, PostgreSQL)', async () => {
    const queue = q('skip');
    const now = h.clock.now();
    await enqueue(h.db, { queue, payload: { n: 1 }, runAt: new Date(now.getTime() - 2) }, now);
    await enqueue(h.db, { queue, payload: { n: 2 }, runAt: new Date(now.getTime() - 1) }, now);
    await h.db.transaction().execute(async (trx) => {
      const mine = await claim(trx, { queues: [queue], workerId: 'holder', limit: 1 }, now);
      expect(mine.map((j) => j.payload)).toEqual([{ n: 1 }]);
      // The holder's transaction is still open: its row is locked, and the other claimer skips it.
      // Were it to wait for the lock, lock_timeout ends the wait with an error (55P03): no clock read.
      const theirs = await h.db.connection().execute(async (other) => {
        await sql`set lock_timeout = '2s'`.execute(other);
        try {
          return await claim(other, { queues: [queue], workerId: 'other', limit: 10 }, now);
        } finally {
          await sql`reset lock_timeout`.execute(other);
        }
      });
      expect(theirs.map((j) => j.payload)).toEqual([{ n: 2 }]);
    });
  });

  it('retries a failed job after a growing backoff, then keeps it as failed with its last error', async () => {
    const queue = q('retry');
    let now = h.clock.now();
    const { id } = await enqueue(h.db, { queue, maxAttempts: 3 }, now);
    const retries: Array<Date | null> = [];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const [job] = await claim(h.db, { queues: [queue], workerId: 'w' }, now);
      expect(job.attempts).toBe(attempt);
      const { retryAt } = await fail(h.db, job, 'w', new Error(`boom ${attempt}`), now);
      retries.push(retryAt);
      if (retryAt) {
        expect(retryAt.getTime() - now.getTime()).toBe(backoffMs(attempt));
        expect(await claim(h.db, { queues: [queue], workerId: 'w' }, new Date(retryAt.getTime() - 1))).toEqual([]);
        now = retryAt;
      }
    }
    expect(retries[2]).toBeNull();
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(60_000);
    expect(backoffMs(20)).toBe(3_600_000);
    const job = await h.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 3, last_error: 'boom 3', done_at: null, locked_by: null });
    expect(job.failed_at).not.toBeNull();
    expect(await claim(h.db, { queues: [queue], workerId: 'w' }, new Date(now.getTime() + 86_400_000))).toEqual([]);
  });

  it('workers on several instances enqueue a scheduled job once per slot and run it once; stop() waits for the poll', async () => {
    const policy = await invoiced();
    const start = plusDays(1);
    const debit = await mandate({ policyId: policy.id, startDate: start, frequency: 'MONTHLY', amount: 75 });
    at(start);
    const workers = ['instance-a', 'instance-b'].map((workerId) => createWorker({
      db: h.db, clock: h.clock, handlers: jobHandlers(h.app.services), recurring: RECURRING, intervalMs: 60_000, workerId,
    }));
    await Promise.all(workers.map((w) => w.tick()));
    const { dedupeKey } = slotKey(RECURRING[0], h.clock.now());
    const slot = await h.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', dedupeKey).execute();
    expect(slot).toHaveLength(1);
    expect(slot[0]).toMatchObject({ queue: DUE_DEBITS_QUEUE, attempts: 1, failed_at: null });
    expect(slot[0].done_at).not.toBeNull();
    expect(await debitsOf(debit.id)).toHaveLength(1);
    // The poll loop: started, it polls on its own (a job of its queue runs with no tick called);
    // stopped while that job runs, stop() answers once the poll has finished. Signals, not sleeps.
    const queue = q('poll-loop');
    let began!: () => void;
    let finish!: () => void;
    const running = new Promise<void>((resolve) => { began = resolve; });
    const finishing = new Promise<void>((resolve) => { finish = resolve; });
    const looping = createWorker({
      db: h.db, clock: h.clock, handlers: { [queue]: async () => { began(); await finishing; } }, intervalMs: 60_000, workerId: 'instance-c',
    });
    const { id } = await enqueue(h.db, { queue }, h.clock.now());
    looping.start();
    await running;
    const stopped = looping.stop();
    finish();
    await stopped;
    expect((await h.db.selectFrom('jobs').select('done_at').where('id', '=', id).executeTakeFirstOrThrow()).done_at).not.toBeNull();
    await Promise.all(workers.map((w) => w.stop()));
  });

  it('stop() while a batch runs waits for every job of it: a worker claims only jobs it starts at once', async () => {
    const queue = q('stop-mid-batch');
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => { finish = resolve; });
    const ran: string[] = [];
    let allBegun!: () => void;
    const begun = new Promise<void>((resolve) => { allBegun = resolve; });
    const worker = createWorker({
      db: h.db, clock: h.clock, intervalMs: 60_000, workerId: 'instance-stopping',
      handlers: { [queue]: async (job) => { ran.push(job.id); if (ran.length === 3) allBegun(); await finishing; } },
    });
    for (let i = 0; i < 3; i += 1) await enqueue(h.db, { queue, dedupeKey: `${queue}-${i}` }, h.clock.now());
    worker.start();
    await begun;
    let stoppedYet = false;
    const stopped = worker.stop().then(() => { stoppedYet = true; });
    // Every job it holds is running (none waits behind another): stop() answers once they have all ended.
    const rows = () => h.db.selectFrom('jobs').select(['id', 'done_at', 'locked_by', 'attempts']).where('queue', '=', queue).execute();
    expect((await rows()).map((r) => r.locked_by)).toEqual(['instance-stopping', 'instance-stopping', 'instance-stopping']);
    expect(stoppedYet).toBe(false);
    finish();
    await stopped;
    expect(ran).toHaveLength(3);
    for (const row of await rows()) expect(row).toMatchObject({ done_at: expect.any(Date), locked_by: null, attempts: 1 });
  });

  it('purges jobs finished more than a week ago', async () => {
    const queue = q('purge');
    const now = h.clock.now();
    const old = await enqueue(h.db, { queue }, now);
    const [job] = await claim(h.db, { queues: [queue], workerId: 'w' }, now);
    await complete(h.db, job, 'w', now);
    const open = await enqueue(h.db, { queue }, now);
    expect(await purgeFinished(h.db, new Date(now.getTime() + 6 * DAY))).toBe(0);
    expect(await purgeFinished(h.db, new Date(now.getTime() + 8 * DAY))).toBeGreaterThanOrEqual(1);
    expect((await jobsOf(queue)).map((j) => j.id)).toEqual([open.id]);
    expect(old.id).not.toBe(open.id);
  });
});
