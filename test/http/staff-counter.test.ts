import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, JPEG, multipart, PDF, sha256 } from '../helpers/multipart.js';
import { sandboxStaff, sandboxStaffTokens, staffRef } from '../helpers/staff.js';

/**
 * Staff serving a walk-in client at the counter: each call goes through the same domain function
 * as the client's own, within the caller's reach (out of reach 404, as another tenant's id), with
 * the staff member recorded as who did it; invoices raised and read by staff; the client's set-up
 * code resent.
 */

let h: Harness;
type Handle = 'exec' | 'headSales' | 'headClaims' | 'officer' | 'agent';
let tokens: Record<Handle, string>;
let productId: string;
const OFFICER = sandboxStaff('officer');
const HEAD_SALES = sandboxStaff('head.sales');
const ref = staffRef;

beforeAll(async () => {
  h = await createHarness();
  tokens = await sandboxStaffTokens(h);
  productId = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });

type Method = 'GET' | 'POST' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object, apiKey?: string) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }), ...(apiKey && { apiKey }) });
const expectCode = (res: { statusCode: number; json(): any }, status: number, code: string) =>
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
const upload = (token: string, clientId: string, parts = [file('ghana-card.pdf', PDF), file('bumper.jpg', JPEG)]) => {
  const { payload, headers } = multipart(parts);
  return h.call({ method: 'POST', url: `/api/v1/staff/clients/${clientId}/documents`, payload, headers, token });
};
const homeBody = (overrides: object = {}) => ({
  policyType: 'HOME', currency: 'GHS', startDate: plusDays(0), endDate: plusDays(364), productId, businessType: 'NEW_BUSINESS',
  assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }], ...overrides,
});

/** A client the officer opens at the counter (no password: it gets a set-up code). */
async function walkIn(token = tokens.officer) {
  const { password: _password, ...body } = individualBody();
  const res = await call(token, 'POST', '/staff/clients', body);
  expect(res.statusCode).toBe(201);
  return { id: res.json().data.id as string, email: body.email as string };
}

/** A HOME policy sold by the caller to a client, and its invoice. */
async function sell(token: string, clientId: string, overrides: object = {}) {
  const res = await call(token, 'POST', `/staff/clients/${clientId}/policies`, homeBody(overrides));
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; policyNo: string; premium: number; state: string; invoice: { id: string; amount: number } | null; assets: { id: string }[] };
}

/** Cash recorded by the officer and approved by the head of sales: the policy ACTIVE. */
async function paidInCash(clientId: string, invoiceId: string) {
  const recorded = await call(tokens.officer, 'POST', '/staff/transactions', { invoiceId, paymentMethod: 'CASH' });
  expect(recorded.statusCode).toBe(201);
  const approved = await call(tokens.headSales, 'POST', `/staff/transactions/${recorded.json().data.id}/approve`, { notes: 'Cash counted' });
  expect(approved.statusCode).toBe(200);
  return approved.json().data as { id: string; transactionNo: string; receiptNo: string; recordedBy: unknown };
}

describe('a walk-in client served at the counter by staff alone', () => {
  it('sale, cash recorded by one and approved by another, receipt printed, claim with a document, closure requested and approved', async () => {
    const client = await walkIn();

    // 1. The officer sells; the invoice is the officer's.
    const policy = await sell(tokens.officer, client.id);
    const invoice = await call(tokens.officer, 'GET', `/staff/invoices/${policy.invoice!.id}`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.json().data).toMatchObject({ id: policy.invoice!.id, createdBy: { name: 'staff', id: OFFICER.id }, status: 'UNPAID', policyId: policy.id });

    // 2. Cash taken by the officer, approved by the head of sales (four eyes); who recorded it is shown.
    const payment = await paidInCash(client.id, policy.invoice!.id);
    expect(payment).toMatchObject({ recordedBy: { by: 'staff', id: OFFICER.id, staff: ref(OFFICER) }, receiptNo: expect.stringMatching(/^RCT-/) });
    expect((await call(tokens.officer, 'GET', `/staff/policies/${policy.id}`)).json().data.state).toBe('ACTIVE');

    // 3. The officer prints the receipt: the client's very PDF, same number.
    const receipt = await call(tokens.officer, 'GET', `/staff/transactions/${payment.id}/receipt.pdf`);
    expect({ status: receipt.statusCode, type: receipt.headers['content-type'], disposition: receipt.headers['content-disposition'] })
      .toEqual({ status: 200, type: 'application/pdf', disposition: expect.stringContaining(`receipt-${payment.receiptNo}.pdf`) });
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // 4. A photo uploaded for the client, then a claim filed with it, by the officer.
    const uploaded = await upload(tokens.officer, client.id, [file('bumper.jpg', JPEG)]);
    expect(uploaded.statusCode).toBe(201);
    const [photo] = uploaded.json().data;
    expect(photo).toMatchObject({ contentType: 'image/jpeg', uploadedBy: { name: 'staff', id: OFFICER.id }, url: `/api/v1/staff/documents/${photo.id}` });
    const claim = await call(tokens.officer, 'POST', `/staff/clients/${client.id}/claims`, {
      policyId: policy.id, dateOfLoss: plusDays(0), incidentLocation: 'East Legon, Accra', lossCategory: 'MEDICALS',
      estimatedLossAmount: 1200, assets: [policy.assets[0].id], documentIds: [photo.id],
    });
    expect(claim.statusCode).toBe(201);
    expect(claim.json().data).toMatchObject({
      status: 'ACTIVE', stage: 'REVIEW', policyId: policy.id, documentIds: [photo.id],
      meta: { statusHistory: [{ to: 'ACTIVE', staff: OFFICER.id, staffMember: ref(OFFICER), notes: 'Claim filed by staff for the client' }] },
    });
    expect((await call(tokens.headClaims, 'GET', `/staff/claims/${claim.json().data.id}`)).statusCode).toBe(404); // another department's client

    // 5. A closure requested by the officer, approved by the head of sales.
    const closure = await call(tokens.officer, 'POST', `/staff/clients/${client.id}/policy-closures`, {
      policyId: policy.id, reason: 'The client is moving abroad for good', documentIds: [photo.id],
    });
    expect(closure.statusCode).toBe(201);
    expect(closure.json().data).toMatchObject({ status: 'PENDING_REVIEW', requestedBy: ref(OFFICER), policy: { id: policy.id } });
    const approved = await call(tokens.headSales, 'POST', `/staff/policy-closures/${closure.json().data.id}/approve`, { notes: 'Agreed at the counter' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'APPROVED', requestedBy: ref(OFFICER), reviewedBy: ref(HEAD_SALES) });
    expect((await call(tokens.officer, 'GET', `/staff/policies/${policy.id}`)).json().data.state).toBe('CANCELLED');
  });
});

describe('createClaimForClient: POST /staff/clients/{id}/claims', () => {
  it('refuses what the client call refuses, and out of reach, another tenant\'s client or a client token', async () => {
    const client = await walkIn();
    const policy = await sell(tokens.officer, client.id);
    const body = { policyId: policy.id, dateOfLoss: plusDays(0), incidentLocation: 'Accra', lossCategory: 'MEDICALS', estimatedLossAmount: 10, assets: [policy.assets[0].id] };
    expectCode(await call(tokens.officer, 'POST', `/staff/clients/${client.id}/claims`, body), 409, 'POLICY_NOT_CLAIMABLE'); // unpaid
    expectCode(await call(tokens.agent, 'POST', `/staff/clients/${client.id}/claims`, body), 404, 'NOT_FOUND');
    expectCode(await call(tokens.headClaims, 'POST', `/staff/clients/${client.id}/claims`, body), 404, 'NOT_FOUND');
    const other = await signUp(h, individualBody(), h.otherApiKey);
    expectCode(await call(tokens.exec, 'POST', `/staff/clients/${other.account.id}/claims`, body), 404, 'NOT_FOUND');
    const own = await signUp(h, individualBody());
    expectCode(await call(own.token, 'POST', `/staff/clients/${client.id}/claims`, body), 403, 'WRONG_TOKEN_KIND');
    // Another client's policy under this client's id: the client's own rule, 404.
    const second = await walkIn();
    expectCode(await call(tokens.officer, 'POST', `/staff/clients/${second.id}/claims`, body), 404, 'NOT_FOUND');
  });
});

describe('requestPolicyClosureForClient: POST /staff/clients/{id}/policy-closures', () => {
  it('takes one pending request per policy, as the client call does; out of reach is 404', async () => {
    const client = await walkIn();
    const policy = await sell(tokens.officer, client.id);
    const body = { policyId: policy.id, reason: 'Cover moved to my employer\'s scheme' };
    expectCode(await call(tokens.agent, 'POST', `/staff/clients/${client.id}/policy-closures`, body), 404, 'NOT_FOUND');
    const first = await call(tokens.officer, 'POST', `/staff/clients/${client.id}/policy-closures`, body);
    expect(first.statusCode).toBe(201);
    expectCode(await call(tokens.exec, 'POST', `/staff/clients/${client.id}/policy-closures`, body), 409, 'CLOSURE_PENDING');
    // The client sees its request, asked by the officer, and may withdraw it itself.
    const row = await h.db.selectFrom('policy_closures').select(['client_id', 'requested_by_staff_id']).where('id', '=', first.json().data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ client_id: client.id, requested_by_staff_id: OFFICER.id });
  });
});

describe('uploadDocumentsForClient, listDocumentsForClient, downloadStaffDocument, deleteStaffDocument: a client\'s documents', () => {
  it('uploads as the client\'s, lists, downloads the same bytes and deletes; out of reach 404; the client reads them too', async () => {
    const client = await walkIn();
    const res = await upload(tokens.officer, client.id);
    expect(res.statusCode).toBe(201);
    const [card, photo] = res.json().data;
    expect(card).toMatchObject({ name: 'ghana-card.pdf', contentType: 'application/pdf', sha256: sha256(PDF), uploadedBy: { name: 'staff', id: OFFICER.id } });

    const list = await call(tokens.headSales, 'GET', `/staff/clients/${client.id}/documents`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { id: string }) => d.id).sort()).toEqual([card.id, photo.id].sort());
    expectCode(await call(tokens.agent, 'GET', `/staff/clients/${client.id}/documents`), 404, 'NOT_FOUND');

    const download = await call(tokens.officer, 'GET', `/staff/documents/${card.id}`);
    expect({ status: download.statusCode, type: download.headers['content-type'], sha: download.headers['x-content-sha256'] })
      .toEqual({ status: 200, type: 'application/pdf', sha: sha256(PDF) });
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expectCode(await call(tokens.headClaims, 'GET', `/staff/documents/${card.id}`), 404, 'NOT_FOUND');
    expectCode(await call(tokens.agent, 'DELETE', `/staff/documents/${card.id}`), 404, 'NOT_FOUND');

    expect((await call(tokens.officer, 'DELETE', `/staff/documents/${card.id}`)).statusCode).toBe(200);
    expectCode(await call(tokens.officer, 'DELETE', `/staff/documents/${card.id}`), 404, 'NOT_FOUND');
    expectCode(await call(tokens.officer, 'GET', `/staff/documents/${card.id}`), 404, 'NOT_FOUND');
    expect((await call(tokens.officer, 'GET', `/staff/clients/${client.id}/documents`)).json().data).toHaveLength(1);
  });

  it('refuses what the client upload refuses (not multipart: 415), another tenant\'s client (404) and a client token (403)', async () => {
    const client = await walkIn();
    expectCode(await call(tokens.officer, 'POST', `/staff/clients/${client.id}/documents`, { files: [] }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const other = await signUp(h, individualBody(), h.otherApiKey);
    expectCode(await upload(tokens.exec, other.account.id), 404, 'NOT_FOUND');
    const own = await signUp(h, individualBody());
    const { payload, headers } = multipart([file('a.pdf', PDF)]);
    const asClient = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${client.id}/documents`, payload, headers, token: own.token });
    expectCode(asClient, 403, 'WRONG_TOKEN_KIND');
    // The client's own upload is not staff's: uploadedBy null, and staff in reach may still read it.
    const mine = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token: own.token });
    expect(mine.json().data[0]).toMatchObject({ uploadedBy: null, url: `/api/v1/client/documents/${mine.json().data[0].id}` });
    expect((await call(tokens.exec, 'GET', `/staff/documents/${mine.json().data[0].id}`)).statusCode).toBe(200);
  });
});

describe('createDirectDebitForClient, cancelDirectDebitForClient: a client\'s direct debit', () => {
  it('sets one up and cancels it for the client, recorded as the officer\'s; out of reach 404', async () => {
    const client = await walkIn();
    const policy = await sell(tokens.officer, client.id, { startDate: plusDays(5), endDate: plusDays(369) });
    const body = { policyId: policy.id, startDate: plusDays(1), frequency: 'MONTHLY', amount: 100 };
    expectCode(await call(tokens.agent, 'POST', `/staff/clients/${client.id}/direct-debits`, body), 404, 'NOT_FOUND');
    const made = await call(tokens.officer, 'POST', `/staff/clients/${client.id}/direct-debits`, body);
    expect(made.statusCode).toBe(201);
    expect(made.json().data).toMatchObject({ status: 'ACTIVE', policyId: policy.id, amount: 100 });
    expectCode(await call(tokens.officer, 'POST', `/staff/clients/${client.id}/direct-debits`, body), 409, 'DIRECT_DEBIT_ACTIVE');
    const event = await h.db.selectFrom('domain_events').select(['actor_kind', 'actor_id']).where('type', '=', 'directDebit.created')
      .where('object_id', '=', made.json().data.id).executeTakeFirstOrThrow();
    expect(event).toEqual({ actor_kind: 'staff', actor_id: OFFICER.id });
    expect((await call(tokens.officer, 'GET', `/staff/policies/${policy.id}`)).json().data.state).toBe('AWAITING_DEBIT');

    const id = made.json().data.id;
    expectCode(await call(tokens.agent, 'POST', `/staff/direct-debits/${id}/cancel`, { reason: 'Paying in cash instead' }), 404, 'NOT_FOUND');
    const cancelled = await call(tokens.headSales, 'POST', `/staff/direct-debits/${id}/cancel`, { reason: 'Paying in cash instead' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'CANCELLED', cancelReason: 'Paying in cash instead' });
    expectCode(await call(tokens.headSales, 'POST', `/staff/direct-debits/${id}/cancel`, { reason: 'Paying in cash instead' }), 409, 'DIRECT_DEBIT_ENDED');
    const row = await h.db.selectFrom('direct_debits').select('cancelled_by_staff_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.cancelled_by_staff_id).toBe(HEAD_SALES.id);
  });
});

describe('downloadStaffReceipt: GET /staff/transactions/{id}/receipt.pdf', () => {
  it('answers 409 before the money is confirmed and 404 out of reach; the client\'s own payment has recordedBy client', async () => {
    const { token, account } = await signUp(h, individualBody());
    const bought = await h.call({ method: 'POST', url: '/api/v1/client/policies', token, payload: homeBody() });
    const tx = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token,
      payload: { invoiceId: bought.json().data.invoice.id, paymentMethod: 'CASH' } });
    expect(tx.statusCode).toBe(201);
    const id = tx.json().data.id;
    expect(tx.json().data.recordedBy).toEqual({ by: 'client', id: account.id, staff: null });
    expectCode(await call(tokens.officer, 'GET', `/staff/transactions/${id}/receipt.pdf`), 409, 'PAYMENT_NOT_CONFIRMED');
    expectCode(await call(tokens.agent, 'GET', `/staff/transactions/${id}/receipt.pdf`), 404, 'NOT_FOUND'); // not the agent's client
    expectCode(await call(token, 'GET', `/staff/transactions/${id}/receipt.pdf`), 403, 'WRONG_TOKEN_KIND');
  });
});

describe('getStaffInvoice, createStaffInvoice: invoices for staff', () => {
  it('raises a draft\'s invoice at its premium, by the caller; refuses an invoiced policy, a wrong amount and out of reach', async () => {
    const client = await walkIn();
    const draft = await sell(tokens.officer, client.id, { generateInvoice: false });
    expect({ state: draft.state, invoice: draft.invoice }).toEqual({ state: 'DRAFT', invoice: null });

    expectCode(await call(tokens.agent, 'POST', '/staff/invoices', { policyId: draft.id }), 404, 'NOT_FOUND');
    expectCode(await call(tokens.officer, 'POST', '/staff/invoices', { policyId: draft.id, amount: draft.premium + 1 }), 422, 'INVOICE_AMOUNT_MISMATCH');
    expectCode(await call(tokens.officer, 'POST', '/staff/invoices', { policyId: draft.id, amount: -1 }), 400, 'VALIDATION_ERROR');
    expectCode(await call(tokens.officer, 'POST', '/staff/invoices', { amount: 1 }), 400, 'VALIDATION_ERROR');

    const raised = await call(tokens.headSales, 'POST', '/staff/invoices', { policyId: draft.id, amount: draft.premium });
    expect(raised.statusCode).toBe(201);
    expect(raised.json().data).toMatchObject({
      amount: draft.premium, policyId: draft.id, createdBy: { name: 'staff', id: HEAD_SALES.id }, status: 'UNPAID', amountUnpaid: draft.premium,
      policy: { id: draft.id, state: 'PROCESSING' },
    });
    expect((await call(tokens.officer, 'GET', `/staff/policies/${draft.id}`)).json().data.state).toBe('PROCESSING');
    expectCode(await call(tokens.officer, 'POST', '/staff/invoices', { policyId: draft.id }), 409, 'POLICY_INVOICED');

    const id = raised.json().data.id;
    expect((await call(tokens.officer, 'GET', `/staff/invoices/${id}`)).json().data).toEqual(raised.json().data);
    expectCode(await call(tokens.agent, 'GET', `/staff/invoices/${id}`), 404, 'NOT_FOUND');
    expectCode(await call(tokens.headClaims, 'GET', `/staff/invoices/${id}`), 404, 'NOT_FOUND');
    expectCode(await call(tokens.exec, 'GET', `/staff/invoices/${id}`, undefined, h.otherApiKey), 401, 'INVALID_TOKEN');
  });

  it('a client\'s own purchase has no createdBy', async () => {
    const { token } = await signUp(h, individualBody());
    const bought = await h.call({ method: 'POST', url: '/api/v1/client/policies', token, payload: homeBody() });
    const own = await call(tokens.exec, 'GET', `/staff/invoices/${bought.json().data.invoice.id}`);
    expect(own.json().data.createdBy).toBeNull();
  });
});

describe('sendClientSetUpCode: POST /staff/clients/{id}/send-set-up-code', () => {
  it('sends a new set-up code to a client without a password, at most 3 an hour; refuses a client with one, and out of reach', async () => {
    const client = await walkIn();
    expectCode(await call(tokens.agent, 'POST', `/staff/clients/${client.id}/send-set-up-code`), 404, 'NOT_FOUND');
    const sent = await call(tokens.officer, 'POST', `/staff/clients/${client.id}/send-set-up-code`);
    expect({ status: sent.statusCode, message: sent.json().message }).toEqual({ status: 200, message: 'Set-up code sent by email' });
    const messages = await h.db.selectFrom('outbox').select('template').where('recipient', '=', client.email).execute();
    expect(messages.filter((m) => m.template === 'set-password-code')).toHaveLength(2); // the account's first, and this one
    expect((await call(tokens.officer, 'POST', `/staff/clients/${client.id}/send-set-up-code`)).statusCode).toBe(200);
    expect((await call(tokens.officer, 'POST', `/staff/clients/${client.id}/send-set-up-code`)).statusCode).toBe(200);
    expectCode(await call(tokens.officer, 'POST', `/staff/clients/${client.id}/send-set-up-code`), 429, 'RATE_LIMITED');

    const withPassword = await signUp(h, individualBody());
    expectCode(await call(tokens.exec, 'POST', `/staff/clients/${withPassword.account.id}/send-set-up-code`), 409, 'PASSWORD_ALREADY_SET');
    expectCode(await call(withPassword.token, 'POST', `/staff/clients/${client.id}/send-set-up-code`), 403, 'WRONG_TOKEN_KIND');
  });
});
