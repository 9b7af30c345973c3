import { settlePayment } from '../../server/domain/money/payments.js';
import type { PolicyState } from '../../server/platform/db/schema.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { individualBody, onlineProductId, plusDays, signUp, buyHomePolicy } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Staff deciding clients' policy closure requests: the list and one request within reach, approval
 * (policy CANCELLED, direct debit cancelled, payments awaiting approval rejected, unpaid invoice
 * closed, client told, all at once) and rejection (with a reason), each decided once, by
 * supervisors only.
 */

let h: Harness;
type Session = Awaited<ReturnType<typeof staffSession>>;
let exec: Session;
let headSales: Session;
let headClaims: Session;
let officer: Session;
let agent: Session;
/** A staff member of another company, with its Api-Key. */
let foreign: { token: string; apiKey: string };
/** The agent's client (so in Retail Sales' reach, out of Claims and Payments'). */
let client: { id: string; token: string };
/** A client who signed up alone (the company's: every reach but an agent's). */
let walkIn: { id: string; token: string };
let productId: string;
const reason = 'Vehicle sold to a new owner who insures it under their own name';

beforeAll(async () => {
  h = await createHarness();
  [exec, headSales, headClaims, officer, agent] = await Promise.all(['exec', 'head.sales', 'head.claims', 'officer', 'agent'].map((handle) => staffSession(h, handle)));
  const signed = await signUp(h, individualBody());
  client = { id: signed.account.id, token: signed.token };
  await h.db.updateTable('clients').set({ originating_staff_id: agent.id }).where('id', '=', client.id).execute();
  const alone = await signUp(h, individualBody());
  walkIn = { id: alone.account.id, token: alone.token };
  productId = await onlineProductId(h, 'HOME');
  const member = await h.db.insertInto('staff').values({
    tenant_id: h.otherTenantId, email: 'exec@other-tenant.example', first_name: 'Ngozi', last_name: 'Okafor', position: 'EXECUTIVE_MANAGER',
  }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
  foreign = {
    token: (await h.app.services.signStaffAccessToken({ tenantId: h.otherTenantId, staffId: member.id, sessionVersion: member.session_version })).token,
    apiKey: h.otherApiKey,
  };
});
afterAll(async () => { await h.close(); });

type Caller = Session | { token: string; apiKey?: string };
const as = (caller: Caller) => ({ token: caller.token, ...(caller.apiKey ? { apiKey: caller.apiKey } : {}) });
const base = '/api/v1/staff/policy-closures';
const list = (caller: Caller, query = '') => h.call({ method: 'GET', url: `${base}${query}`, ...as(caller) });
const get = (caller: Caller, id: string) => h.call({ method: 'GET', url: `${base}/${id}`, ...as(caller) });
const approve = (caller: Caller, id: string, body?: object) => h.call({ method: 'POST', url: `${base}/${id}/approve`, ...as(caller), payload: body });
const reject = (caller: Caller, id: string, body: object) => h.call({ method: 'POST', url: `${base}/${id}/reject`, ...as(caller), payload: body });

/** A home policy of the client's, PROCESSING with its invoice. */
const invoiced = (token: string) => buyHomePolicy(h, token, productId);
/** Puts a policy in a state the way payments, jobs and staff will (they are other pieces' work). */
const putIn = (policyId: string, state: PolicyState) => h.db.updateTable('policies').set({ state }).where('id', '=', policyId).execute();

async function requestClosure(token: string, policyId: string): Promise<string> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/policies/closure', token, payload: { policyId, reason } });
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}
const pay = (token: string, invoiceId: string, amount: number) =>
  h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId, paymentMethod: 'CASH', amount } });
const clientPolicy = async (token: string, id: string) => (await h.call({ method: 'GET', url: `/api/v1/client/policies/${id}`, token })).json().data;
const clientInvoice = async (token: string, id: string) =>
  ((await h.call({ method: 'GET', url: '/api/v1/client/invoices?usePagination=false', token })).json().data as Array<{ id: string }>).find((i) => i.id === id)!;
const lastNotification = (clientId: string) => h.db.selectFrom('notifications').select(['title', 'body', 'entity']).where('client_id', '=', clientId)
  .orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
const expectError = (res: { statusCode: number; json: () => any }, status: number, code: string) => {
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
};

describe('approvePolicyClosure', () => {
  it('cancels the policy, its direct debit, its payments awaiting approval and what is unpaid, in one step, and tells the client', async () => {
    const policy = await invoiced(client.token);
    const debit = await h.call({ method: 'POST', url: '/api/v1/client/direct-debits', token: client.token,
      payload: { policyId: policy.id, startDate: plusDays(1), frequency: 'MONTHLY', amount: 100 } });
    expect(debit.statusCode).toBe(201);
    const approved = (await pay(client.token, policy.invoiceId, 100)).json().data;
    await new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope, { transactionId: approved.id, to: 'APPROVED', actor: { by: 'staff', id: headClaims.id }, at: h.clock.now() }));
    const pending = (await pay(client.token, policy.invoiceId, 50)).json().data;
    expect(pending.status).toBe('PENDING_APPROVAL');
    await putIn(policy.id, 'ACTIVE');
    const id = await requestClosure(client.token, policy.id);

    // Serving staff read it; only supervisors within reach decide it.
    expect((await list(agent, `?status=PENDING_REVIEW&clientId=${client.id}`)).json().data.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await get(officer, id)).json().data).toMatchObject({ id, status: 'PENDING_REVIEW', reviewedBy: null, policy: { id: policy.id, state: 'ACTIVE' } });
    expectError(await approve(officer, id), 403, 'NOT_PERMITTED');
    expectError(await approve(agent, id), 403, 'NOT_PERMITTED');
    expectError(await approve({ token: client.token }, id), 403, 'WRONG_TOKEN_KIND');
    expectError(await get(headClaims, id), 404, 'NOT_FOUND');
    expectError(await approve(headClaims, id), 404, 'NOT_FOUND');
    expectError(await approve(foreign, id), 404, 'NOT_FOUND');
    expect((await get(exec, id)).json().data.status).toBe('PENDING_REVIEW');

    const res = await approve(headSales, id, { notes: 'Sale letter checked against the registration' });
    expect(res.statusCode).toBe(200);
    const closure = res.json().data;
    expect(closure).toMatchObject({
      id, status: 'APPROVED', reviewNotes: 'Sale letter checked against the registration',
      reviewedBy: { name: 'staff', id: headSales.id, email: headSales.username },
      policy: { id: policy.id, state: 'CANCELLED' },
    });
    expect(Date.parse(closure.reviewedAt)).not.toBeNaN();
    // The client sees it decided, and its policy cancelled by that staff member.
    expect((await h.call({ method: 'GET', url: `/api/v1/client/policies/closure/${id}`, token: client.token })).json().data)
      .toMatchObject({ status: 'APPROVED', reviewedBy: { id: headSales.id } });
    expect((await clientPolicy(client.token, policy.id)).state).toBe('CANCELLED');
    const change = await h.db.selectFrom('policy_state_changes').selectAll().where('policy_id', '=', policy.id)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(change).toMatchObject({ from_state: 'ACTIVE', to_state: 'CANCELLED', actor_kind: 'staff', actor_id: headSales.id, notes: 'Policy closed' });

    expect((await h.call({ method: 'GET', url: `/api/v1/client/direct-debits/${debit.json().data.id}`, token: client.token })).json().data)
      .toMatchObject({ status: 'CANCELLED', nextDebitDate: null, cancelReason: 'Policy closed' });
    const payments = await h.db.selectFrom('transactions').select(['id', 'status']).where('invoice_id', '=', policy.invoiceId).execute();
    expect(Object.fromEntries(payments.map((p) => [p.id, p.status]))).toEqual({ [approved.id]: 'APPROVED', [pending.id]: 'REJECTED' });
    const rejection = await h.db.selectFrom('transaction_state_changes').selectAll().where('transaction_id', '=', pending.id).where('to_state', '=', 'REJECTED')
      .executeTakeFirstOrThrow();
    expect(rejection).toMatchObject({ from_state: 'PENDING_APPROVAL', actor_kind: 'staff', actor_id: headSales.id, notes: 'Policy closed' });

    // Money received stays; the rest is written off and nothing more is taken.
    const invoice = await clientInvoice(client.token, policy.invoiceId);
    expect(invoice).toMatchObject({ amountApproved: 100, amountUnapproved: 0, amountUnpaid: 0, convertedAmountUnpaid: 0, isClosed: true,
      closedReason: `Policy ${policy.policyNo} closed` });
    expect(Date.parse((invoice as { closedAt?: string }).closedAt!)).not.toBeNaN();
    expectError(await pay(client.token, policy.invoiceId, 10), 409, 'INVOICE_CLOSED');
    expectError(await h.call({ method: 'POST', url: '/api/v1/staff/transactions', token: exec.token,
      payload: { invoiceId: policy.invoiceId, paymentMethod: 'CASH', amount: 10 } }), 409, 'INVOICE_CLOSED');

    const note = await lastNotification(client.id);
    expect(note).toMatchObject({ title: `Closure of policy ${policy.policyNo} approved`, entity: { name: 'policyClosure', id } });
    expect(note.body).toContain(`invoice ${policy.invoiceNo} is closed`);
    expect(note.body).toContain('direct debit is cancelled');

    // Decided once: nobody decides it again, and the client no longer changes or withdraws it.
    expectError(await approve(exec, id), 409, 'INVALID_STATE_TRANSITION');
    expectError(await reject(exec, id, { reason: 'Changed our mind about it' }), 409, 'INVALID_STATE_TRANSITION');
    expectError(await h.call({ method: 'PUT', url: `/api/v1/client/policies/closure/${id}`, token: client.token,
      payload: { reason, effectiveDate: plusDays(3) } }), 409, 'CLOSURE_REVIEWED');
    expectError(await h.call({ method: 'DELETE', url: `/api/v1/client/policies/closure/${id}`, token: client.token }), 409, 'CLOSURE_REVIEWED');
  });

  it('refuses a policy that can no longer be cancelled (409 from the policy machine) and changes nothing', async () => {
    const policy = await invoiced(walkIn.token);
    await putIn(policy.id, 'ACTIVE');
    const id = await requestClosure(walkIn.token, policy.id);
    await putIn(policy.id, 'EXPIRED');
    const res = await approve(exec, id, {});
    expectError(res, 409, 'INVALID_STATE_TRANSITION');
    expect(res.json().message).toBe(`Policy ${policy.policyNo} cannot move from EXPIRED to CANCELLED by a staff`);
    expect((await get(exec, id)).json().data).toMatchObject({ status: 'PENDING_REVIEW', reviewedAt: null, reviewedBy: null });
    expect((await clientInvoice(walkIn.token, policy.invoiceId))).toMatchObject({ isClosed: false });
    expect((await h.db.selectFrom('invoices').select('voided_at').where('id', '=', policy.invoiceId).executeTakeFirstOrThrow()).voided_at).toBeNull();
  });
});

describe('rejectPolicyClosure', () => {
  it('needs a reason, keeps the policy as it was, tells the client why, and is final', async () => {
    const policy = await invoiced(client.token);
    await putIn(policy.id, 'ACTIVE');
    const id = await requestClosure(client.token, policy.id);

    for (const body of [{}, { reason: 'no' }]) {
      const bad = await reject(exec, id, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('reason');
    }
    expectError(await reject(officer, id, { reason: 'Not signed by the buyer' }), 403, 'NOT_PERMITTED');
    expectError(await reject(agent, id, { reason: 'Not signed by the buyer' }), 403, 'NOT_PERMITTED');
    expectError(await reject({ token: client.token }, id, { reason: 'Not signed by the buyer' }), 403, 'WRONG_TOKEN_KIND');
    expectError(await reject(foreign, id, { reason: 'Not signed by the buyer' }), 404, 'NOT_FOUND');

    const why = 'The sale letter is not signed by the buyer; send a signed copy with a new request';
    const res = await reject(exec, id, { reason: why });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, status: 'REJECTED', reviewNotes: why, reviewedBy: { id: exec.id, name: 'staff' }, policy: { state: 'ACTIVE' } });
    expect((await clientPolicy(client.token, policy.id)).state).toBe('ACTIVE');
    const note = await lastNotification(client.id);
    expect(note).toMatchObject({ title: `Closure of policy ${policy.policyNo} rejected`, entity: { name: 'policyClosure', id } });
    expect(note.body).toContain(why);

    expectError(await reject(headSales, id, { reason: why }), 409, 'INVALID_STATE_TRANSITION');
    expectError(await approve(headSales, id), 409, 'INVALID_STATE_TRANSITION');
    expect((await clientPolicy(client.token, policy.id)).state).toBe('ACTIVE');
    expectError(await h.call({ method: 'PUT', url: `/api/v1/client/policies/closure/${id}`, token: client.token,
      payload: { reason, effectiveDate: plusDays(3) } }), 409, 'CLOSURE_REVIEWED');
    expectError(await h.call({ method: 'DELETE', url: `/api/v1/client/policies/closure/${id}`, token: client.token }), 409, 'CLOSURE_REVIEWED');
    // The client may ask again.
    await requestClosure(client.token, policy.id);
  });
});

describe('listStaffPolicyClosures', () => {
  it('lists the requests within reach, newest first, filtered', async () => {
    const mine = await invoiced(walkIn.token);
    const id = await requestClosure(walkIn.token, mine.id);
    const ids = async (caller: Session, query = '') => {
      const res = await list(caller, query);
      expect(res.statusCode).toBe(200);
      return res.json().data.map((c: { id: string }) => c.id) as string[];
    };
    // The walk-in is the company's: the agent does not serve it, department staff do.
    expect(await ids(agent)).not.toContain(id);
    expect((await ids(officer))[0]).toBe(id);
    expect(await ids(exec, `?policyNo=${mine.policyNo.slice(-4)}&status=PENDING_REVIEW`)).toEqual([id]);
    expect(await ids(exec, `?policyId=${mine.id}`)).toEqual([id]);
    expect(await ids(exec, `?id=${id}&clientId=${client.id}`)).toEqual([]);
    expect(await ids(exec, `?status=APPROVED&policyId=${mine.id}`)).toEqual([]);
    // The agent's client is out of Claims and Payments' reach.
    expect(await ids(headClaims, `?clientId=${client.id}`)).toEqual([]);
    expect((await list(exec, '?limit=1')).json().paginator).toMatchObject({ limit: 1, page: 1 });
    expectError(await list({ token: walkIn.token }), 403, 'WRONG_TOKEN_KIND');
    expect((await list(foreign)).json().data).toEqual([]);
  });
});
