import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectFiguresAgree } from '../helpers/money.js';
import { sandboxStaff, sandboxStaffTokens, staffRef } from '../helpers/staff.js';

/**
 * Staff approve or reject payments waiting for them (cash, cheque, bank transfer): the payment
 * settles through the one settling path (figures, receipt, paid policies, the client told), who
 * decided, when and why is kept; the recorder may not approve their own (four eyes); anything not
 * PENDING_APPROVAL is the machine's 409; outside the caller's reach is 404.
 */

let h: Harness;
let tokens: Record<'exec' | 'headSales' | 'headClaims' | 'officer' | 'agent', string>;
let productId: string;

const HEAD_CLAIMS = sandboxStaff('head.claims');
const ref = staffRef;

beforeAll(async () => {
  h = await createHarness();
  tokens = await sandboxStaffTokens(h);
  productId = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });

/** A signed-up client with a new home policy starting `startDate` and its invoice. */
async function clientWithInvoice(startDate = plusDays(0)) {
  const { token, account } = await signUp(h, individualBody());
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token, payload: {
      policyType: 'HOME', currency: 'GHS', startDate, endDate: plusDays(364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { token, clientId: account.id as string, policyId: policy.id as string, invoiceId: policy.invoice.id as string };
}

async function pay(token: string, body: Record<string, unknown>, url = '/api/v1/client/transactions') {
  const res = await h.call({ method: 'POST', url, token, payload: body });
  expect({ status: res.statusCode, body: res.statusCode === 201 ? undefined : res.json() }).toEqual({ status: 201, body: undefined });
  return res.json().data as { id: string; transactionNo: string };
}

const get = (token: string, id: string, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/staff/transactions/${id}`, token, apiKey });
const approve = (token: string, id: string, payload?: object) =>
  h.call({ method: 'POST', url: `/api/v1/staff/transactions/${id}/approve`, token, ...(payload && { payload }) });
const reject = (token: string, id: string, payload?: object) =>
  h.call({ method: 'POST', url: `/api/v1/staff/transactions/${id}/reject`, token, ...(payload && { payload }) });
const notifications = async (token: string) =>
  (await h.call({ method: 'GET', url: '/api/v1/client/account/notifications?limit=100', token })).json().data as Array<{ title: string; body: string }>;
const expectCode = (res: { statusCode: number; json(): any }, status: number, code: string) =>
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });

describe('approveTransaction: POST /staff/transactions/{id}/approve', () => {
  it('approves cash: APPROVED with who, when and notes; the invoice paid, the policy ACTIVE, the receipt issued, the client told', async () => {
    const client = await clientWithInvoice();
    const tx = await pay(client.token, { invoiceId: client.invoiceId, paymentMethod: 'CASH', transactionType: 'NEW_BUSINESS' });

    const pending = await get(tokens.officer, tx.id); // whoever serves the client sees it
    expect(pending.statusCode).toBe(200);
    expect(pending.json().data).toMatchObject({ id: tx.id, status: 'PENDING_APPROVAL', reviewedBy: null, reviewedAt: null, reviewNotes: null });
    expect((await h.call({ method: 'GET', url: `/api/v1/client/transactions/${tx.id}/receipt.pdf`, token: client.token })).statusCode).toBe(409);

    const before = h.clock.now().getTime();
    const res = await approve(tokens.headClaims, tx.id, { notes: 'Cash counted and banked' });
    const after = h.clock.now().getTime();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: tx.id, status: 'APPROVED', reviewedBy: ref(HEAD_CLAIMS), reviewNotes: 'Cash counted and banked',
      invoice: { id: client.invoiceId, status: 'FULLY_PAID', isClosed: true, amountUnpaid: 0 },
    });
    expect(Date.parse(data.reviewedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(data.reviewedAt)).toBeLessThanOrEqual(after);
    expect((await get(tokens.headSales, tx.id)).json().data).toEqual({ ...data, updatedAt: expect.any(String) });

    const policy = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${client.policyId}`, token: client.token })).json().data;
    expect(policy.state).toBe('ACTIVE');
    const receipt = await h.call({ method: 'GET', url: `/api/v1/client/transactions/${tx.id}/receipt.pdf`, token: client.token });
    expect({ status: receipt.statusCode, type: receipt.headers['content-type'] }).toEqual({ status: 200, type: 'application/pdf' });
    expect((await notifications(client.token)).map((n) => n.title)).toContain(`Payment ${tx.transactionNo} received`);
    await expectFiguresAgree(h, client.token, client.invoiceId);

    const changes = await h.db.selectFrom('transaction_state_changes').select(['from_state', 'to_state', 'actor_kind', 'actor_id', 'notes'])
      .where('transaction_id', '=', tx.id).orderBy('created_at').execute();
    expect(changes).toEqual([
      { from_state: null, to_state: 'PENDING_APPROVAL', actor_kind: 'client', actor_id: client.clientId, notes: 'Created' },
      { from_state: 'PENDING_APPROVAL', to_state: 'APPROVED', actor_kind: 'staff', actor_id: HEAD_CLAIMS.id, notes: 'Cash counted and banked' },
    ]);

    // Settled: a second decision, either way, is the machine's 409.
    expectCode(await approve(tokens.exec, tx.id), 409, 'INVALID_STATE_TRANSITION');
    expectCode(await reject(tokens.exec, tx.id, { reason: 'Changed my mind' }), 409, 'INVALID_STATE_TRANSITION');
  });

  it('approves without a body; a policy starting later becomes INACTIVE; of two racing approvals one wins', async () => {
    const client = await clientWithInvoice(plusDays(10));
    const tx = await pay(client.token, { invoiceId: client.invoiceId, paymentMethod: 'BANK_TRANSFER' });
    const answers = await Promise.all([approve(tokens.headSales, tx.id), approve(tokens.exec, tx.id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('INVALID_STATE_TRANSITION');
    expect(answers.find((r) => r.statusCode === 200)!.json().data).toMatchObject({ status: 'APPROVED', reviewNotes: null });
    const policy = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${client.policyId}`, token: client.token })).json().data;
    expect(policy.state).toBe('INACTIVE');
    const receipts = await h.db.selectFrom('transactions').select('receipt_no').where('id', '=', tx.id).execute();
    expect(receipts[0].receipt_no).toMatch(/^RCT-\d{4,}$/);
  });

  it('four eyes: who recorded a payment may not approve it (403 OWN_PAYMENT); another supervisor may', async () => {
    const client = await clientWithInvoice();
    const tx = await pay(tokens.headSales, { invoiceId: client.invoiceId, paymentMethod: 'CASH', amount: 100 }, '/api/v1/staff/transactions');
    const own = await approve(tokens.headSales, tx.id);
    expectCode(own, 403, 'OWN_PAYMENT');
    expect(own.json().message).toBe(`You recorded payment ${tx.transactionNo} yourself; another supervisor must approve it`);
    expect((await get(tokens.exec, tx.id)).json().data.status).toBe('PENDING_APPROVAL');
    const res = await approve(tokens.exec, tx.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'APPROVED', reviewedBy: { id: sandboxStaff('exec').id },
      invoice: { status: 'PARTIALLY_PAID', isClosed: false } });
  });

  it('leaves mobile money and card payments to the provider: 409 INVALID_STATE_TRANSITION either way', async () => {
    const client = await clientWithInvoice();
    const momo = await pay(client.token, { invoiceId: client.invoiceId, paymentMethod: 'MOBILE_MONEY', amount: 100, mobileNumber: '0244123456' });
    const card = await pay(client.token, { invoiceId: client.invoiceId, paymentMethod: 'ONLINE', amount: 100 });
    for (const id of [momo.id, card.id]) {
      expectCode(await approve(tokens.exec, id), 409, 'INVALID_STATE_TRANSITION');
      expectCode(await reject(tokens.exec, id, { reason: 'Not received at the branch' }), 409, 'INVALID_STATE_TRANSITION');
    }
    expect((await get(tokens.exec, momo.id)).json().data.status).toBe('PENDING_VERIFICATION');
    expect((await get(tokens.exec, card.id)).json().data.status).toBe('PENDING_PAYMENT');
  });
});

describe('rejectTransaction: POST /staff/transactions/{id}/reject', () => {
  it('needs a reason; rejects with it: REJECTED, no longer paid on the invoice, the client told why; then final', async () => {
    const client = await clientWithInvoice();
    const tx = await pay(client.token, {
      invoiceId: client.invoiceId, paymentMethod: 'CHEQUE', amount: 200, paymentInstitution: 'GCB Bank',
      chequeDate: plusDays(0), nameOnCheque: 'Kofi Mensah', chequeNo: '000451', chequeType: 'PERSONAL',
    });
    expect((await get(tokens.exec, tx.id)).json().data.invoice.amountPaid).toBe(200);
    for (const body of [undefined, {}, { reason: 'no' }]) {
      const res = await reject(tokens.headClaims, tx.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/reason|body/);
    }
    expect((await reject(tokens.headClaims, tx.id, {})).json().message).toContain('reason');
    expect((await reject(tokens.headClaims, tx.id, { reason: 'no' })).json().message).toContain('body.reason');

    const reason = 'The cheque was returned unpaid by the bank';
    const res = await reject(tokens.headClaims, tx.id, { reason });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'REJECTED', reviewedBy: ref(HEAD_CLAIMS), reviewNotes: reason,
      invoice: { status: 'UNPAID', amountPaid: 0, isClosed: false },
    });
    const told = (await notifications(client.token)).find((n) => n.title === `Payment ${tx.transactionNo} rejected`);
    expect(told?.body).toContain(`Reason: ${reason}`);
    const invoice = await expectFiguresAgree(h, client.token, client.invoiceId);
    expect(invoice.amountPaid).toBe(0);
    const policy = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${client.policyId}`, token: client.token })).json().data;
    expect(policy.state).toBe('PROCESSING');

    expectCode(await approve(tokens.exec, tx.id), 409, 'INVALID_STATE_TRANSITION');
    expectCode(await reject(tokens.exec, tx.id, { reason }), 409, 'INVALID_STATE_TRANSITION');
    const last = await h.db.selectFrom('transaction_state_changes').select(['to_state', 'actor_kind', 'actor_id', 'notes'])
      .where('transaction_id', '=', tx.id).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(last).toEqual({ to_state: 'REJECTED', actor_kind: 'staff', actor_id: HEAD_CLAIMS.id, notes: reason });
  });
});

describe('who may decide, and over whose payments', () => {
  it('refuses officers (NOT_PERMITTED) and client tokens (WRONG_TOKEN_KIND); out of reach, other tenant and unknown ids are 404', async () => {
    const client = await clientWithInvoice();
    const tx = await pay(client.token, { invoiceId: client.invoiceId, paymentMethod: 'CASH', amount: 50 });
    expectCode(await approve(tokens.officer, tx.id), 403, 'NOT_PERMITTED');
    expectCode(await reject(tokens.officer, tx.id, { reason: 'Not received at all' }), 403, 'NOT_PERMITTED');
    expectCode(await approve(client.token, tx.id), 403, 'WRONG_TOKEN_KIND');
    expectCode(await get(client.token, tx.id), 403, 'WRONG_TOKEN_KIND');

    // The agent's reach is the clients it brought in: a self-signed-up client's payment is not one.
    expectCode(await get(tokens.agent, tx.id), 404, 'NOT_FOUND');
    // Credited to the agent (Retail Sales), the client is out of the Claims head's reach, in the Sales head's.
    await h.db.updateTable('clients').set({ originating_staff_id: sandboxStaff('agent').id }).where('id', '=', client.clientId).execute();
    expectCode(await get(tokens.headClaims, tx.id), 404, 'NOT_FOUND');
    expectCode(await approve(tokens.headClaims, tx.id), 404, 'NOT_FOUND');
    expectCode(await reject(tokens.headClaims, tx.id, { reason: 'Not received at all' }), 404, 'NOT_FOUND');
    expect((await get(tokens.agent, tx.id)).statusCode).toBe(200);

    // An executive manager of another company does not see this one's payments.
    const other = await h.db.insertInto('staff').values({
      tenant_id: h.otherTenantId, email: 'exec@other-tenant.example', first_name: 'Other', last_name: 'Exec',
      type: 'NORMAL_STAFF', position: 'EXECUTIVE_MANAGER', department_id: null,
    }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
    const { token: otherToken } = await h.app.services.signStaffAccessToken({ tenantId: h.otherTenantId, staffId: other.id, sessionVersion: other.session_version });
    expectCode(await get(otherToken, tx.id, h.otherApiKey), 404, 'NOT_FOUND');
    expectCode(await h.call({ method: 'POST', url: `/api/v1/staff/transactions/${tx.id}/approve`, token: otherToken, apiKey: h.otherApiKey }), 404, 'NOT_FOUND');
    expectCode(await get(tokens.exec, '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'), 404, 'NOT_FOUND');

    const res = await approve(tokens.headSales, tx.id);
    expect(res.statusCode).toBe(200);
    expect((await get(tokens.agent, tx.id)).json().data.status).toBe('APPROVED');
  });
});
