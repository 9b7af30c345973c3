import { Decimal } from 'decimal.js';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { sql } from 'kysely';
import type { TransactionStatus } from '../../server/platform/db/schema.js';
import { settlePayment } from '../../server/domain/money/payments.js';
import { issueReceipt } from '../../server/domain/money/receipts/number.js';
import { amountInWords, money } from '../../server/domain/read-models/receipts/render.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { individualBody, onlineProductId, plusDays, signUp, buyHomePolicy } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let token: string;
let otherToken: string;
let otherTenantToken: string;
let productId: string;
let tenantName: string;
const PAYER = 'Kofi Atta Mensah'; // individualBody's first, other and last names

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  otherToken = (await signUp(h, individualBody())).token;
  otherTenantToken = (await signUp(h, individualBody(), h.otherApiKey)).token;
  productId = await onlineProductId(h, 'HOME');
  tenantName = (await h.db.selectFrom('companies').select('name').where('id', '=', h.tenantId).executeTakeFirstOrThrow()).name;
}, 120_000); // a fresh database, migrated and seeded: slow on a busy machine
afterAll(async () => { await h.close(); });

/** A new home policy of the client's, with its invoice. */
const invoiced = () => buyHomePolicy(h, token, productId);

async function pay(body: Record<string, unknown>): Promise<{ id: string; transactionNo: string }> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: body });
  expect({ status: res.statusCode, body: res.statusCode === 201 ? undefined : res.json() }).toEqual({ status: 201, body: undefined });
  return res.json().data;
}

/** Staff or the provider deciding a payment, as test/http/money.test.ts does (their calls come with later issues). */
const decide = (transactionId: string, to: TransactionStatus, by: 'staff' | 'provider' = 'staff') =>
  new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope,
    { transactionId, to, actor: { by, id: null }, at: new Date() }));

const receipt = (id: string, as = token, apiKey?: string) =>
  h.call({ method: 'GET', url: `/api/v1/client/transactions/${id}/receipt.pdf`, token: as, apiKey });

/** The PDF's text, whitespace collapsed, and its document info. */
async function readPdf(bytes: Buffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  const { info } = await getMeta(pdf);
  return { totalPages, text: text.replace(/\s+/g, ' '), info: info as Record<string, unknown> };
}
const receiptNoIn = (text: string) => text.match(/Receipt number (RCT-\d{4,})/)?.[1];

describe('downloadReceipt: GET /client/transactions/{id}/receipt.pdf', () => {
  it('renders the receipt of approved cash: company, numbers, payer, policy, invoice, amount in figures and words, method, balance', async () => {
    const { policyNo, invoiceId, invoiceNo, amount } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'CASH', amount: 500, transactionType: 'NEW_BUSINESS' });
    await decide(tx.id, 'APPROVED');

    const res = await receipt(tx.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { totalPages, text, info } = await readPdf(res.rawPayload);
    expect(totalPages).toBe(1);
    const receiptNo = receiptNoIn(text)!;
    expect(receiptNo).toMatch(/^RCT-\d{4,}$/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="receipt-${receiptNo}.pdf"`);
    const today = new Date().toISOString().slice(0, 10);
    for (const expected of [
      tenantName, '12 Independence Avenue, Accra', 'Ghana', 'Official receipt', `Receipt No ${receiptNo}`,
      `Transaction number ${tx.transactionNo}`, `Received from ${PAYER}`, `Policy ${policyNo} | Home`,
      `Invoice ${invoiceNo}, ${money('GHS', amount)}`, 'Payment method Cash', 'Payment for New business',
      'Amount received GHS 500.00', 'In words Five Hundred Cedis Only',
      `Balance remaining on invoice ${invoiceNo} after this payment: ${money('GHS', new Decimal(amount).minus(500))}`,
      `Date of payment ${longDay(today)}`, `Date issued ${longDay(today)}`,
    ]) expect(text).toContain(expected);
    expect(text).not.toContain('Policyholder'); // the client paid: no separate policyholder line
    expect(info).toMatchObject({ Title: `Receipt ${receiptNo}`, Author: tenantName });

    // The number was given when the payment was approved, and every download shows the same one.
    const stored = await h.db.selectFrom('transactions').select(['receipt_no', 'receipt_issued_at', 'settled_at']).where('id', '=', tx.id).executeTakeFirstOrThrow();
    expect(stored.receipt_no).toBe(receiptNo);
    expect(new Date(stored.receipt_issued_at!).getTime()).toBe(new Date(stored.settled_at!).getTime());
    const again = await receipt(tx.id);
    expect(again.statusCode).toBe(200);
    expect(receiptNoIn((await readPdf(again.rawPayload)).text)).toBe(receiptNo);
  });

  it('numbers receipts as money is confirmed, one number per payment, and tells the client', async () => {
    const { invoiceId } = await invoiced();
    const first = await pay({ invoiceId, paymentMethod: 'BANK_TRANSFER', amount: 100 });
    const second = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 200, mobileNumber: '0244123456' });
    await decide(second.id, 'VERIFIED', 'provider');
    await decide(first.id, 'APPROVED');
    const rows = await h.db.selectFrom('transactions').select(['id', 'receipt_no']).where('id', 'in', [first.id, second.id]).execute();
    const no = (id: string) => Number(rows.find((r) => r.id === id)!.receipt_no!.slice(4));
    expect(no(first.id)).toBe(no(second.id) + 1); // the order they were confirmed in
    const notices = await h.db.selectFrom('notifications').select(['title', 'body']).where('tenant_id', '=', h.tenantId).execute();
    expect(notices.find((n) => n.title === `Payment ${second.transactionNo} received`)?.body)
      .toContain(`(receipt ${rows.find((r) => r.id === second.id)!.receipt_no})`);

    const { text } = await readPdf((await receipt(second.id)).rawPayload);
    expect(text).toContain('Payment method Mobile money, 0244123456');
  });

  it('names the payee and the policyholder apart, shows the cheque, pesewas in words, and a later payment leaves an earlier receipt as it was', async () => {
    const { invoiceId, invoiceNo, amount } = await invoiced();
    expect(amount).toBeGreaterThan(1012.5); // the sandbox home premium: this cheque pays part of it
    const cheque = await pay({
      invoiceId, paymentMethod: 'CHEQUE', amount: 1012.5, payee: 'Ama Mensah', paymentInstitution: 'GCB Bank, Osu branch',
      chequeDate: plusDays(-1), nameOnCheque: 'Ama Mensah', chequeNo: '000451', chequeType: 'PERSONAL',
    });
    await decide(cheque.id, 'APPROVED');
    const before = (await readPdf((await receipt(cheque.id)).rawPayload)).text;
    for (const expected of [
      'Received from Ama Mensah', `Policyholder ${PAYER}`, 'Cheque No 000451 (PERSONAL)', 'drawn by Ama Mensah', 'GCB Bank, Osu branch',
      'Amount received GHS 1,012.50', 'One Thousand Twelve Cedis And Fifty Pesewas Only',
      `after this payment: ${money('GHS', new Decimal(amount).minus('1012.5'))}`,
    ]) expect(before).toContain(expected);

    const rest = await pay({ invoiceId, paymentMethod: 'CASH' });
    await decide(rest.id, 'APPROVED');
    expect((await readPdf((await receipt(rest.id)).rawPayload)).text).toContain(`Invoice ${invoiceNo} is paid in full with this payment.`);
    expect((await readPdf((await receipt(cheque.id)).rawPayload)).text).toBe(before);
  });

  it('answers 409 for money not received: pending, rejected', async () => {
    const { invoiceId } = await invoiced();
    const pending = await pay({ invoiceId, paymentMethod: 'CASH', amount: 50 });
    let res = await receipt(pending.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      statusCode: 409, requestId: expect.any(String), error: 'Conflict', code: 'PAYMENT_NOT_CONFIRMED',
      message: `Transaction ${pending.transactionNo} is PENDING_APPROVAL: a receipt is issued only for money received (APPROVED or VERIFIED)`,
    });
    await decide(pending.id, 'REJECTED');
    res = await receipt(pending.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/is REJECTED: a receipt is issued only for money received/);
    const stored = await h.db.selectFrom('transactions').select('receipt_no').where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(stored.receipt_no).toBeNull();
  });

  it("answers 404 for another client's or another tenant's payment, or an unknown one, and 400 for a malformed id", async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'CASH', amount: 10 });
    await decide(tx.id, 'APPROVED');
    for (const [as, apiKey] of [[otherToken, undefined], [otherTenantToken, h.otherApiKey]] as const) {
      const res = await receipt(tx.id, as, apiKey);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Transaction not found' });
    }
    expect((await receipt('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const bad = await receipt('not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    expect((await h.call({ method: 'GET', url: `/api/v1/client/transactions/${tx.id}/receipt.pdf` })).statusCode).toBe(401);
  });

  /**
   * Answers once another session of this database waits for a lock (the second taker blocked on the
   * first's row lock), seen in pg_stat_activity rather than assumed after a sleep. The embedded
   * database has one session, which runs the second transaction only after the first: nothing to wait for.
   */
  async function secondIsWaiting() {
    if (h.driver !== 'pg') return;
    const until = Date.now() + 30_000;
    while (Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(h.db)).rows[0].n) === 0) {
      if (Date.now() > until) throw new Error('the second taker never waited for the first one\'s lock');
    }
  }

  it('numbers a payment confirmed before receipts were numbered once: a second taker waits for the first, racing downloads agree', async () => {
    const { invoiceId } = await invoiced();
    const tx = await pay({ invoiceId, paymentMethod: 'CASH', amount: 20 });
    await decide(tx.id, 'APPROVED');
    // As a payment approved before migration 008 was: confirmed, no receipt number.
    const unnumber = () => h.db.updateTable('transactions').set({ receipt_no: null, receipt_issued_at: null }).where('id', '=', tx.id).execute();
    const counter = async () => Number((await h.db.selectFrom('tenant_sequences').select('last_value')
      .where('tenant_id', '=', h.tenantId).where('name', '=', 'RCT').executeTakeFirstOrThrow()).last_value);
    const issue = (trx: typeof h.db) => issueReceipt(new TenantScope(trx, h.tenantId), tx.id, new Date()).then((r) => r!.receiptNo);

    // The first taker holds its transaction open while the second starts: the second must wait
    // for it and read its number, not take a number of its own.
    await unnumber();
    let was = await counter();
    let took!: (no: string) => void;
    let release!: () => void;
    const taken = new Promise<string>((resolve) => { took = resolve; });
    const held = new Promise<void>((resolve) => { release = resolve; });
    const first = h.db.transaction().execute(async (trx) => { const no = await issue(trx); took(no); await held; return no; });
    const firstNo = await taken;
    const second = h.db.transaction().execute((trx) => issue(trx));
    await secondIsWaiting();
    release();
    expect(await Promise.all([first, second])).toEqual([firstNo, firstNo]);
    expect(await counter()).toBe(was + 1);

    // Downloads racing for an unnumbered receipt: one number between them.
    await unnumber();
    was = await counter();
    const answers = await Promise.all(Array.from({ length: 6 }, () => receipt(tx.id)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const numbers = new Set(await Promise.all(answers.map(async (r) => receiptNoIn((await readPdf(r.rawPayload)).text))));
    expect(await counter()).toBe(was + 1);
    const stored = await h.db.selectFrom('transactions').select('receipt_no').where('id', '=', tx.id).executeTakeFirstOrThrow();
    expect([...numbers]).toEqual([stored.receipt_no]);
  });
});

describe('amounts in words', () => {
  it('writes cedis and pesewas for GHS, and the number with its code for other currencies', () => {
    expect(amountInWords(500, 'GHS')).toBe('Five Hundred Cedis Only');
    expect(amountInWords('3722.5', 'GHS')).toBe('Three Thousand Seven Hundred Twenty Two Cedis And Fifty Pesewas Only');
    expect(amountInWords('1200.45', 'USD')).toBe('One Thousand Two Hundred USD And 45/100 Only');
    expect(amountInWords(75, 'NGN')).toBe('Seventy Five NGN Only');
    expect(money('GHS', '1234567.5')).toBe('GHS 1,234,567.50');
  });
});

/** `2026-11-21` -> `21 November 2026`, as the receipt writes dates. */
function longDay(day: string) {
  const [y, m, d] = day.split('-').map(Number);
  return `${d} ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][m - 1]} ${y}`;
}
