import { Decimal } from 'decimal.js';
import ExcelJS from 'exceljs';
import { settlePayment } from '../../server/domain/money/payments.js';
import { jobHandlers, PURGE_IDEMPOTENCY_KEYS_QUEUE, RECURRING } from '../../server/app/jobs.js';
import type { TransactionStatus } from '../../server/platform/db/schema.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectFiguresAgree as figuresAgree } from '../helpers/money.js';
import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';

let h: Harness;
let token: string;
let otherToken: string;
let otherTenantToken: string;
let productId: string;
const today = plusDays(0);

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  otherToken = (await signUp(h, individualBody())).token;
  otherTenantToken = (await signUp(h, individualBody(), h.otherApiKey)).token;
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });

/** A new home policy of the client's with its invoice; `startDays` from today. */
async function invoiced(as = token, startDays = 10): Promise<{ policyId: string; policyNo: string; invoiceId: string; invoiceNo: string; amount: number }> {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token: as, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(startDays), endDate: plusDays(startDays + 364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { policyId: policy.id, policyNo: policy.policyNo, invoiceId: policy.invoice.id, invoiceNo: policy.invoice.invoiceNo, amount: policy.invoice.amount };
}

const pay = (body: Record<string, unknown>, as = token, headers: Record<string, string> = {}) =>
  h.call({ method: 'POST', url: '/api/v1/client/transactions', token: as, payload: body, headers });
const invoices = (query = '', as = token) => h.call({ method: 'GET', url: `/api/v1/client/invoices${query}`, token: as });
const invoiceOf = async (invoiceId: string, as = token) => {
  const list = (await invoices('', as)).json().data as Array<Record<string, any>>;
  return list.find((i) => i.id === invoiceId)!;
};
/** Staff or the provider deciding a payment (their calls come with later issues; the rule is the same). */
const decide = (transactionId: string, to: TransactionStatus, by: 'staff' | 'provider' = 'staff') =>
  new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope,
    { transactionId, to, actor: { by, id: null }, at: new Date() }));

const expectFiguresAgree = (invoiceId: string) => figuresAgree(h, token, invoiceId);

describe('invoices', () => {
  it('lists the client\'s invoices with figures derived from payments, the policy and its items', async () => {
    const { invoiceId, invoiceNo, policyId, policyNo, amount } = await invoiced();
    const invoice = await invoiceOf(invoiceId);
    expect(invoice).toMatchObject({
      invoiceNo, policyId, amount, convertedAmount: amount, currency: 'GHS', exchangeRate: 1, invoiceDate: today,
      amountPaid: 0, amountUnpaid: amount, amountApproved: 0, amountUnapproved: 0, convertedAmountUnpaid: amount,
      status: 'UNPAID', isClosed: false, isDebit: false, createdBy: null, transactions: [],
      policy: { id: policyId, policyNo, policyType: 'HOME', state: 'PROCESSING', amount }, policies: [{ id: policyId, amount }],
    });
    expect((await invoices(`?policy=${policyNo}`)).json().data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    expect((await invoices(`?policy=${policyId}`)).json().data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    expect((await invoices(`?policy=${policyId}`, otherToken)).json().data).toEqual([]);
    // Each filter's page is built once and reused: a second policy, by number (in lower case) and by
    // id, reads its own invoice through the same queries, and the count agrees.
    const second = await invoiced();
    for (const ref of [second.policyNo.toLowerCase(), second.policyId]) {
      const page = (await invoices(`?policy=${ref}`)).json();
      expect(page.data.map((i: { id: string }) => i.id)).toEqual([second.invoiceId]);
      expect(page.paginator.itemsCount).toBe(1);
    }
    expect((await invoices(`?policy=${policyNo}`)).json().data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
  });

  it('exports invoices to a spreadsheet that opens and has the rows', async () => {
    await invoiced();
    const res = await invoices('?format=excel&usePagination=false');
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const total = (await invoices('?limit=1')).json().paginator.itemsCount;
    expect(sheet.rowCount).toBe(total + 1);
    expect(sheet.getRow(1).values).toContain('Invoice No');
    expect((await invoices('?format=excel')).statusCode).toBe(400);
  });

  it('shows a payer an invoice by id, or by number with its amount, with no client details; other tenants see nothing', async () => {
    const { invoiceId, invoiceNo, policyNo, amount } = await invoiced();
    for (const ref of [`${invoiceNo}?amount=${amount}`, `${invoiceNo.toLowerCase()}?amount=${amount}`, invoiceId]) {
      const res = await h.call({ method: 'GET', url: `/api/v1/external/invoices/${ref}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id: invoiceId, invoiceNo, currency: 'GHS', amount, invoiceDate: today, description: `Premium for policy ${policyNo}`,
        policyNos: [policyNo], insurer: expect.any(String), amountPaid: 0, amountUnpaid: amount, status: 'UNPAID', isClosed: false });
    }
    // A number alone, or with the wrong amount, reads nothing: numbers run in sequence.
    const bare = await h.call({ method: 'GET', url: `/api/v1/external/invoices/${invoiceNo}` });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/^query.amount is required/);
    expect((await h.call({ method: 'GET', url: `/api/v1/external/invoices/${invoiceNo}?amount=${amount + 1}` })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v1/external/invoices/${invoiceNo}?amount=${amount}`, apiKey: h.otherApiKey })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v1/external/invoices/INV-999999?amount=${amount}` })).statusCode).toBe(404);
  });

  it('limits lookups by number per address (429), so invoice numbers cannot be walked', async () => {
    const { invoiceId, invoiceNo } = await invoiced();
    const lookup = (ref: string) => h.app.inject({ method: 'GET', url: `/api/v1/external/invoices/${ref}`, headers: { 'api-key': h.apiKey }, remoteAddress: '192.0.2.44' });
    const answers = [];
    for (let n = 1; n <= 31; n += 1) answers.push((await lookup(`INV-${String(n).padStart(4, '0')}?amount=1`)).statusCode);
    expect(answers.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(answers[30]).toBe(429);
    expect((await lookup(`${invoiceNo}?amount=1`)).statusCode).toBe(429);
    // The id, unguessable, is still answered.
    expect((await lookup(invoiceId)).statusCode).toBe(200);
  });
});

describe('createTransaction: POST /client/transactions', () => {
  it('records cash in part, awaiting approval; approval makes the invoice PARTIALLY_PAID', async () => {
    const { invoiceId, policyId } = await invoiced();
    const res = await pay({ invoiceId, paymentMethod: 'CASH', amount: 500, payee: 'Ama Mensah', transactionType: 'NEW_BUSINESS' });
    expect(res.statusCode).toBe(201);
    const tx = res.json().data;
    expect(tx).toMatchObject({ transactionNo: expect.stringMatching(/^TRX-\d{4,}$/), status: 'PENDING_APPROVAL', amount: 500, convertedAmount: 500,
      currency: 'GHS', policyId, paymentMethod: 'CASH', payee: 'Ama Mensah', dateReceived: today, checkoutUrl: null, cheque: null,
      invoice: { id: invoiceId, amountPaid: 500, status: 'UNPAID' } });
    let invoice = await expectFiguresAgree(invoiceId);
    expect(invoice).toMatchObject({ amountUnapproved: 500, amountApproved: 0, status: 'UNPAID', isDebit: false });
    await decide(tx.id, 'APPROVED');
    invoice = await expectFiguresAgree(invoiceId);
    expect(invoice).toMatchObject({ amountApproved: 500, status: 'PARTIALLY_PAID', isDebit: true, isClosed: false });
    // A payer looking the invoice up sees the same figures (read in the lookup's one query).
    const external = (await h.call({ method: 'GET', url: `/api/v1/external/invoices/${invoiceId}` })).json().data;
    expect(external).toMatchObject({ amountPaid: invoice.amountPaid, amountUnpaid: invoice.amountUnpaid, status: 'PARTIALLY_PAID' });
    const history = await h.db.selectFrom('transaction_state_changes').select(['from_state', 'to_state', 'actor_kind'])
      .where('transaction_id', '=', tx.id).orderBy('created_at').execute();
    expect(history).toEqual([{ from_state: null, to_state: 'PENDING_APPROVAL', actor_kind: 'client' }, { from_state: 'PENDING_APPROVAL', to_state: 'APPROVED', actor_kind: 'staff' }]);
  });

  it('takes what remains when amount is 0 or left out; paid in full, the policy moves on', async () => {
    const { invoiceId, policyId, amount } = await invoiced(token, 10);
    const first = (await pay({ invoiceId, paymentMethod: 'BANK_TRANSFER', amount: 1000 })).json().data;
    const rest = (await pay({ invoiceId, paymentMethod: 'BANK_TRANSFER', amount: 0 })).json().data;
    expect(rest.amount).toBe(new Decimal(amount).minus(1000).toNumber());
    const none = await pay({ invoiceId, paymentMethod: 'CASH' });
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('INVOICE_SETTLED');
    await decide(first.id, 'APPROVED');
    await decide(rest.id, 'APPROVED');
    const invoice = await expectFiguresAgree(invoiceId);
    expect(invoice).toMatchObject({ status: 'FULLY_PAID', isClosed: true, amountUnpaid: 0 });
    // Cover starts in 10 days: paid, it waits INACTIVE until then.
    const policy = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${policyId}`, token })).json().data;
    expect(policy).toMatchObject({ state: 'INACTIVE', isPaid: true });
    const del = await h.call({ method: 'DELETE', url: `/api/v1/client/policies/${policyId}`, token });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('POLICY_PAID');
  });

  it('refuses more than is left to pay (422) and any exchange rate but the invoice\'s (400)', async () => {
    const { invoiceId, amount } = await invoiced();
    const over = await pay({ invoiceId, paymentMethod: 'CASH', amount: new Decimal(amount).plus(0.01).toNumber() });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'AMOUNT_EXCEEDS_BALANCE', message: expect.stringMatching(/^body.amount .* left to pay on invoice INV-/) });
    const part = (await pay({ invoiceId, paymentMethod: 'CASH', amount: 100 })).json().data;
    expect((await pay({ invoiceId, paymentMethod: 'CASH', amount: new Decimal(amount).minus(99.99).toNumber() })).statusCode).toBe(422);
    const rate = await pay({ invoiceId, paymentMethod: 'CASH', amount: 100, exchangeRate: 3.5 });
    expect(rate.statusCode).toBe(400);
    expect(rate.json().message).toBe(`body.exchangeRate must be 1, the rate of invoice ${part.invoice.invoiceNo} (leave it out)`);
    expect((await pay({ invoiceId, paymentMethod: 'CASH', amount: 100, exchangeRate: 1 })).statusCode).toBe(201);
    const figures = await expectFiguresAgree(invoiceId);
    expect(figures).toMatchObject({ amountPaid: 200 });
  });

  it('activates a policy whose cover has started, and a rejected payment frees its amount', async () => {
    const { invoiceId, policyId } = await invoiced(token, 0);
    const refused = (await pay({ invoiceId, paymentMethod: 'CASH' })).json().data;
    await decide(refused.id, 'REJECTED');
    expect((await invoiceOf(invoiceId))).toMatchObject({ amountPaid: 0, status: 'UNPAID' });
    const again = (await pay({ invoiceId, paymentMethod: 'CASH' })).json().data;
    expect(again.amount).toBe(refused.amount);
    await decide(again.id, 'APPROVED');
    expect((await h.call({ method: 'GET', url: `/api/v1/client/policies/${policyId}`, token })).json().data.state).toBe('ACTIVE');
    await expectFiguresAgree(invoiceId);
  });

  it('enforces the cheque rules and each method\'s own fields, naming the field', async () => {
    const { invoiceId } = await invoiced();
    const cheque = { invoiceId, paymentMethod: 'CHEQUE', amount: 200, chequeDate: today, nameOnCheque: 'Kofi Mensah', chequeNo: '000451', chequeType: 'PERSONAL' };
    const message = async (body: Record<string, unknown>) => {
      const res = await pay(body);
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    for (const field of ['chequeDate', 'nameOnCheque', 'chequeNo', 'chequeType']) {
      const { [field]: _dropped, ...rest } = cheque as Record<string, unknown>;
      expect(await message(rest)).toBe(`body.${field} is required`);
    }
    expect(await message({ ...cheque, chequeNo: '45' })).toBe('body.chequeNo must NOT have fewer than 3 characters');
    expect(await message({ ...cheque, nameOnCheque: 'KM' })).toBe('body.nameOnCheque must NOT have fewer than 3 characters');
    expect(await message({ invoiceId, paymentMethod: 'CASH', chequeNo: '000451' })).toBe('body.chequeNo is only allowed when body.paymentMethod is CHEQUE');
    expect(await message({ invoiceId, paymentMethod: 'MOBILE_MONEY' })).toBe('body.mobileNumber is required');
    expect(await message({ invoiceId, paymentMethod: 'CASH', mobileNumber: '0244123456' })).toBe('body.mobileNumber is only allowed when body.paymentMethod is MOBILE_MONEY');
    expect(await message({ invoiceId, paymentMethod: 'CASH', amount: -1 })).toBe('body.amount must be >= 0');
    expect(await message({ invoiceId, paymentMethod: 'CASH', amount: 19.995 })).toBe('body.amount must be multiple of 0.01');
    expect(await message({ invoiceId, paymentMethod: 'CASH', currency: 'USD' })).toMatch(/^body\.currency must be GHS, the currency of invoice INV-/);
    expect(await message({ invoiceId, paymentMethod: 'CASH', dateReceived: plusDays(2) })).toBe(`body.dateReceived must not be in the future (today is ${today})`);
    expect(await message({ paymentMethod: 'CASH' })).toBe('body.invoiceId is required');
    expect(await message({ invoiceId, paymentMethod: 'CARD' })).toMatch(/^body\.paymentMethod must be one of/);
    // Cents that binary floats cannot hold exactly are still whole cents.
    expect((await pay({ invoiceId, paymentMethod: 'CASH', amount: 19.99 })).json().data.amount).toBe(19.99);
    const ok = await pay(cheque);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.cheque).toEqual({ chequeDate: today, nameOnCheque: 'Kofi Mensah', chequeNo: '000451', chequeType: 'PERSONAL' });
    await expectFiguresAgree(invoiceId);
  });

  it('starts an online checkout and a mobile money prompt', async () => {
    const { invoiceId, amount } = await invoiced();
    const card = (await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 100 })).json().data;
    expect(card).toMatchObject({ status: 'PENDING_PAYMENT', checkoutUrl: `${h.config.publicBaseUrl}/api/v1/sandbox/checkout/sbx_chk_${card.id}` });
    const momo = (await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', mobileNumber: '0244123456' })).json().data;
    expect(momo).toMatchObject({ status: 'PENDING_VERIFICATION', mobileNumber: '0244123456', checkoutUrl: null, amount: new Decimal(amount).minus(100).toNumber() });
    // A checkout in progress holds its amount; an unfinished one expires after 30 minutes.
    expect((await pay({ invoiceId, paymentMethod: 'CASH' })).statusCode).toBe(409);
    await decide(momo.id, 'ERROR', 'provider');
    h.clock.advance(31 * 60 * 1000);
    const after = (await pay({ invoiceId, paymentMethod: 'CASH' })).json().data;
    expect(after.amount).toBe(amount);
    h.clock.advance(-31 * 60 * 1000);
    const expired = await h.db.selectFrom('transactions').select('status').where('id', '=', card.id).executeTakeFirstOrThrow();
    expect(expired.status).toBe('CANCELLED');
    await expectFiguresAgree(invoiceId);
  });

  it('answers 404 for another client\'s or tenant\'s invoice, and writes nothing', async () => {
    const { invoiceId } = await invoiced();
    expect((await pay({ invoiceId, paymentMethod: 'CASH' }, otherToken)).statusCode).toBe(404);
    const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: otherTenantToken, apiKey: h.otherApiKey,
      payload: { invoiceId, paymentMethod: 'CASH' } });
    expect(res.statusCode).toBe(404);
    expect(await h.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoiceId).execute()).toEqual([]);
  });

  it('50 concurrent payments of "the rest" pay the invoice exactly once', async () => {
    const { invoiceId, amount } = await invoiced();
    const answers = await Promise.all(Array.from({ length: 50 }, () => pay({ invoiceId, paymentMethod: 'CASH', amount: 0 })));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const rows = await h.db.selectFrom('transactions').select('amount').where('invoice_id', '=', invoiceId).execute();
    expect(rows.map((r) => Number(r.amount))).toEqual([amount]);
    await expectFiguresAgree(invoiceId);
  });
});

describe('Idempotency-Key', () => {
  it('50 concurrent requests with one key make one payment and give identical answers', async () => {
    const { invoiceId } = await invoiced();
    const body = { invoiceId, paymentMethod: 'CASH', amount: 300 };
    const answers = await Promise.all(Array.from({ length: 50 }, () => pay(body, token, { 'idempotency-key': 'pay-once-1' })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(await h.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoiceId).execute()).toHaveLength(1);
    await expectFiguresAgree(invoiceId);
  });

  it('replays the first answer for the same body, refuses another body (422), and expires after 24 hours', async () => {
    const { invoiceId } = await invoiced();
    const body = { invoiceId, paymentMethod: 'CASH', amount: 100 };
    const first = await pay(body, token, { 'idempotency-key': 'k-2' });
    const again = await pay({ amount: 100, paymentMethod: 'CASH', invoiceId }, token, { 'idempotency-key': 'k-2' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await pay({ ...body, amount: 101 }, token, { 'idempotency-key': 'k-2' });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Keys belong to a client: another client's same key is a new request.
    const { invoiceId: theirs } = await invoiced(otherToken);
    expect((await pay({ invoiceId: theirs, paymentMethod: 'CASH', amount: 100 }, otherToken, { 'idempotency-key': 'k-2' })).statusCode).toBe(201);
    h.clock.advance(24 * 3600 * 1000 + 1000);
    const later = await pay(body, token, { 'idempotency-key': 'k-2' });
    h.clock.advance(-(24 * 3600 * 1000 + 1000));
    expect(later.statusCode).toBe(201);
    expect(later.json().data.id).not.toBe(first.json().data.id);
    await expectFiguresAgree(invoiceId);
  });

  it('the hourly sweep deletes expired keys of every tenant and client, and only those', async () => {
    const { invoiceId } = await invoiced();
    await pay({ invoiceId, paymentMethod: 'CASH', amount: 10 }, token, { 'idempotency-key': 'sweep-old' });
    const { invoiceId: theirs } = await invoiced(otherToken);
    await pay({ invoiceId: theirs, paymentMethod: 'CASH', amount: 10 }, otherToken, { 'idempotency-key': 'sweep-old' });
    h.clock.advance(23 * 3600 * 1000);
    await pay({ invoiceId, paymentMethod: 'CASH', amount: 10 }, token, { 'idempotency-key': 'sweep-young' });
    const keys = () => h.db.selectFrom('idempotency_keys').select('key').where('key', 'like', 'sweep-%').orderBy('key').execute();
    expect((await keys()).map((k) => k.key)).toEqual(['sweep-old', 'sweep-old', 'sweep-young']);
    h.clock.advance(2 * 3600 * 1000); // the first two are now 25 hours old, the last 2 hours
    // The job as the worker runs it.
    await jobHandlers(h.app.services)[PURGE_IDEMPOTENCY_KEYS_QUEUE]({} as never, h.clock.now());
    h.clock.advance(-25 * 3600 * 1000);
    expect((await keys()).map((k) => k.key)).toEqual(['sweep-young']);
    expect(RECURRING.map((r) => r.queue)).toContain(PURGE_IDEMPOTENCY_KEYS_QUEUE);
  });

  it('keeps nothing from a failed request, so a retry with the key goes through', async () => {
    const { invoiceId } = await invoiced();
    const fail = await pay({ invoiceId: '5b8e2f14-3c9a-4d7e-8f1b-2a3c4d5e6f70', paymentMethod: 'CASH' }, token, { 'idempotency-key': 'k-3' });
    expect(fail.statusCode).toBe(404);
    const ok = await pay({ invoiceId: '5b8e2f14-3c9a-4d7e-8f1b-2a3c4d5e6f70', paymentMethod: 'CASH' }, token, { 'idempotency-key': 'k-3' });
    expect(ok.statusCode).toBe(404);
    expect((await pay({ invoiceId, paymentMethod: 'CASH' }, token, { 'idempotency-key': 'k-4' })).statusCode).toBe(201);
  });
});

describe('listTransactions: GET /client/transactions', () => {
  it('lists the client\'s payments with every filter, and exports them', async () => {
    const a = await invoiced();
    const b = await invoiced();
    const ta = (await pay({ invoiceId: a.invoiceId, paymentMethod: 'CASH', amount: 10 })).json().data;
    h.clock.advance(1000);
    const tb = (await pay({ invoiceId: b.invoiceId, paymentMethod: 'CASH', amount: 20, dateReceived: plusDays(-3) })).json().data;
    await decide(tb.id, 'APPROVED');
    const ids = async (query: string, as = token) =>
      (await h.call({ method: 'GET', url: `/api/v1/client/transactions${query}`, token: as })).json().data.map((t: { id: string }) => t.id);
    const all = await ids('?usePagination=false');
    expect(all.indexOf(tb.id)).toBeLessThan(all.indexOf(ta.id)); // newest first
    expect(await ids(`?invoiceId=${a.invoiceId}`)).toEqual([ta.id]);
    expect(await ids(`?invoiceNo=${b.invoiceNo.toLowerCase()}`)).toEqual([tb.id]);
    expect(await ids(`?policyId=${a.policyId}`)).toEqual([ta.id]);
    expect(await ids(`?policyNo=${b.policyNo}`)).toEqual([tb.id]);
    expect(await ids(`?status=APPROVED&invoiceId=${b.invoiceId}`)).toEqual([tb.id]);
    const d = plusDays(-3).split('-').reverse().join('-');
    expect(await ids(`?date=${d}&invoiceId=${b.invoiceId}`)).toEqual([tb.id]);
    expect(await ids(`?from=${plusDays(-1)}&invoiceId=${b.invoiceId}`)).toEqual([]);
    expect(await ids(`?to=${plusDays(-1)}&invoiceId=${b.invoiceId}`)).toEqual([tb.id]);
    expect(await ids(`?invoiceId=${a.invoiceId}`, otherToken)).toEqual([]);
    // A page's queries are built once per set of filters and reused with other values: the same
    // filters again, for the other payment, read that one, and a page agrees with the unpaged list.
    expect(await ids(`?policyNo=${a.policyNo}`)).toEqual([ta.id]);
    expect(await ids(`?invoiceNo=${a.invoiceNo}`)).toEqual([ta.id]);
    expect(await ids(`?status=APPROVED&invoiceId=${a.invoiceId}`)).toEqual([]);
    expect(await ids(`?to=${plusDays(0)}&from=${plusDays(-5)}`)).toEqual(await ids(`?to=${plusDays(0)}&from=${plusDays(-5)}&usePagination=false`));
    const bad = await h.call({ method: 'GET', url: '/api/v1/client/transactions?date=31-02-2026', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('query.date is not a real date: 31-02-2026');
    const sheet = await h.call({ method: 'GET', url: '/api/v1/client/transactions?format=excel&usePagination=false', token });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].rowCount).toBe((await ids('?usePagination=false')).length + 1);
  });
});


