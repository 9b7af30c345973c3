import { randomUUID } from 'node:crypto';
import { CHECKOUT_TTL_MS } from '../../server/domain/money/payments.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { auth, buyHomePolicy, castOfClients, onlineProductId, type Caller } from '../helpers/clients.js';
import { staffSession } from '../helpers/staff.js';

/**
 * A client reads one of its own payments or invoices by id, exactly as its lists show them, and
 * nobody else's; a payment says what the payer must still do (`nextAction`) while it waits for
 * them, and stops saying it once the sandbox provider has settled it.
 */

let h: Harness;
let cast: Awaited<ReturnType<typeof castOfClients>>;
let staffToken: string;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  cast = await castOfClients(h);
  staffToken = (await staffSession(h, 'exec')).token;
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });
// A test that stopped the clock leaves it running on the machine's time again.
afterEach(() => { h.clock.set(new Date().toISOString()); });

const get = (url: string, as: Caller) => h.call({ method: 'GET', url: `/api/v1${url}`, ...auth(as) });

async function pay(body: Record<string, unknown>, as = cast.token) {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: as, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json().data as Record<string, any>;
}

/** What the client's list says of one of its payments or invoices. */
async function listed(list: 'transactions' | 'invoices', id: string) {
  const res = await get(`/client/${list}?usePagination=false`, cast.token);
  expect(res.statusCode).toBe(200);
  return (res.json().data as Array<Record<string, any>>).find((row) => row.id === id);
}

// The sandbox pages, as the payer's browser reaches them (no Api-Key, no token).
const pathOf = (url: string) => new URL(url).pathname;
const openPage = (url: string) => h.call({ method: 'GET', url: pathOf(url), apiKey: null, headers: { accept: 'text/html' } });
const answerPage = (url: string, form: string) => h.call({ method: 'POST', url: pathOf(url), apiKey: null,
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: form });

describe('getTransaction: GET /client/transactions/{id}, getInvoice: GET /client/invoices/{id}', () => {
  let invoiceId: string;
  let transactionId: string;

  beforeAll(async () => {
    ({ invoiceId } = await buyHomePolicy(h, cast.token, productId));
    transactionId = (await pay({ invoiceId, paymentMethod: 'CASH', amount: 100 })).id;
  });

  it("answers the client's own payment and invoice exactly as its lists show them", async () => {
    const transaction = await get(`/client/transactions/${transactionId}`, cast.token);
    expect(transaction.statusCode).toBe(200);
    expect(transaction.json().data).toEqual(await listed('transactions', transactionId));
    expect(transaction.json().data).toMatchObject({ id: transactionId, invoiceId, paymentMethod: 'CASH', status: 'PENDING_APPROVAL', nextAction: null });

    const invoice = await get(`/client/invoices/${invoiceId}`, cast.token);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.json().data).toEqual(await listed('invoices', invoiceId));
    expect(invoice.json().data.transactions).toEqual([expect.objectContaining({ id: transactionId })]);
  });

  it("answers 404 for another client's or another tenant's id, as for an unknown one", async () => {
    for (const [url, message] of [[`/client/transactions/${transactionId}`, 'Transaction not found'], [`/client/invoices/${invoiceId}`, 'Invoice not found']]) {
      for (const as of [cast.otherToken, cast.otherTenant]) {
        const res = await get(url, as);
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 404, body: { statusCode: 404, requestId: expect.any(String), message, error: 'Not Found', code: 'NOT_FOUND' } });
      }
    }
    const unknownTransaction = await get(`/client/transactions/${randomUUID()}`, cast.token);
    expect(unknownTransaction.statusCode).toBe(404);
    expect(unknownTransaction.json()).toMatchObject({ message: 'Transaction not found', code: 'NOT_FOUND' });
    const unknownInvoice = await get(`/client/invoices/${randomUUID()}`, cast.token);
    expect(unknownInvoice.statusCode).toBe(404);
    expect(unknownInvoice.json()).toMatchObject({ message: 'Invoice not found', code: 'NOT_FOUND' });
  });

  it('answers 403 to a staff token and 400 to an id that is not a UUID', async () => {
    for (const url of [`/client/transactions/${transactionId}`, `/client/invoices/${invoiceId}`]) {
      const staff = await get(url, staffToken);
      expect({ url, status: staff.statusCode, code: staff.json().code }).toEqual({ url, status: 403, code: 'WRONG_TOKEN_KIND' });
    }
    const malformed = await get('/client/transactions/not-a-uuid', cast.token);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^params\.id /);
  });
});

describe('createTransaction, getTransaction, listTransactions: nextAction, what the payer must still do', () => {
  it('ONLINE: REDIRECT_TO_CHECKOUT to the sandbox checkout page until the checkout is paid, then null everywhere', async () => {
    const { invoiceId } = await buyHomePolicy(h, cast.token, productId);
    const started = await pay({ invoiceId, paymentMethod: 'ONLINE' });
    const createdAt = Date.parse(started.createdAt);
    expect(started.nextAction).toEqual({
      type: 'REDIRECT_TO_CHECKOUT', url: started.checkoutUrl, expiresAt: new Date(createdAt + CHECKOUT_TTL_MS).toISOString(),
    });
    expect(started.nextAction.url).toBe(`${h.config.publicBaseUrl}/api/v1/sandbox/checkout/sbx_chk_${started.id}`);
    // The same on the read by id, the client's list and the staff's views of it.
    expect((await get(`/client/transactions/${started.id}`, cast.token)).json().data.nextAction).toEqual(started.nextAction);
    expect((await listed('transactions', started.id))!.nextAction).toEqual(started.nextAction);
    expect((await get(`/staff/transactions/${started.id}`, staffToken)).json().data.nextAction).toEqual(started.nextAction);

    const page = await openPage(started.nextAction.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="outcome" value="pay"');
    expect((await answerPage(started.nextAction.url, 'outcome=pay')).statusCode).toBe(303);

    const paid = (await get(`/client/transactions/${started.id}`, cast.token)).json().data;
    expect(paid).toMatchObject({ status: 'APPROVED', checkoutUrl: null, nextAction: null });
    expect((await listed('transactions', started.id))!.nextAction).toBeNull();
    expect((await get(`/staff/transactions/${started.id}`, staffToken)).json().data.nextAction).toBeNull();
  });

  it('ONLINE: null once the checkout has expired unfinished, though no one has cancelled it yet', async () => {
    const { invoiceId } = await buyHomePolicy(h, cast.token, productId);
    h.clock.freeze();
    const started = await pay({ invoiceId, paymentMethod: 'ONLINE', amount: 100 });
    h.clock.advance(CHECKOUT_TTL_MS);
    expect((await get(`/client/transactions/${started.id}`, cast.token)).json().data.nextAction).toEqual(started.nextAction);
    h.clock.advance(1000);
    const expired = (await get(`/client/transactions/${started.id}`, cast.token)).json().data;
    expect(expired).toMatchObject({ status: 'PENDING_PAYMENT', nextAction: null });
    expect((await openPage(started.checkoutUrl)).body).toContain('expired');
  });

  it('MOBILE_MONEY: APPROVE_MOBILE_MONEY with the sandbox prompt page and no deadline until approved, then null', async () => {
    const { invoiceId } = await buyHomePolicy(h, cast.token, productId);
    const started = await pay({ invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 100, mobileNumber: '0244123456' });
    expect(started).toMatchObject({ status: 'PENDING_VERIFICATION', checkoutUrl: null });
    expect(started.nextAction).toEqual({
      type: 'APPROVE_MOBILE_MONEY', url: `${h.config.publicBaseUrl}/api/v1/sandbox/mobile-money/sbx_momo_${started.id}`, expiresAt: null,
    });
    expect((await get(`/client/transactions/${started.id}`, cast.token)).json().data.nextAction).toEqual(started.nextAction);
    expect((await listed('transactions', started.id))!.nextAction).toEqual(started.nextAction);

    const page = await openPage(started.nextAction.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<dd>0244123456</dd>');
    expect((await answerPage(started.nextAction.url, 'outcome=approve')).statusCode).toBe(303);

    expect((await get(`/client/transactions/${started.id}`, cast.token)).json().data).toMatchObject({ status: 'VERIFIED', nextAction: null });
    expect((await listed('transactions', started.id))!.nextAction).toBeNull();
  });

  it('is null for money paid elsewhere, which waits for staff rather than the payer', async () => {
    const { invoiceId } = await buyHomePolicy(h, cast.token, productId);
    expect((await pay({ invoiceId, paymentMethod: 'BANK_TRANSFER', amount: 100 })).nextAction).toBeNull();
  });
});
