import { jobHandlers, RECURRING } from '../../server/app/jobs.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, onlineProductId, plusDays } from '../helpers/clients.js';
import { SANDBOX_STAFF_PASSWORD } from '../helpers/staff.js';

/**
 * The back office end to end, through the API alone (the expiry job is run by the server's own
 * worker, at a clock moved past the policy's end date): a client buys and pays cash, a head of
 * department approves it and the policy goes ACTIVE with a receipt; a claim is reviewed, settled,
 * and ends SETTLED and CLOSED; a closure is approved and the policy CANCELLED; a policy past its
 * end date is EXPIRED by the job. Each story has its refused neighbour: a rejected payment, a
 * repudiated claim, a rejected closure.
 */

let h: Harness;
let productId: string;
beforeAll(async () => {
  h = await createHarness();
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }) });
/** Answers `data`, after checking the status. */
async function ok(token: string, method: Method, url: string, payload: object | undefined, status: number) {
  const res = await call(token, method, url, payload);
  expect({ url, status: res.statusCode, body: res.statusCode === status ? null : res.json() }).toEqual({ url, status, body: null });
  return res.json().data;
}

async function staffLogin(handle: string): Promise<string> {
  const res = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username: `${handle}@sandbox.coverline.example`, password: SANDBOX_STAFF_PASSWORD } });
  expect(res.statusCode).toBe(200);
  return res.json().data.accessToken;
}

async function clientSignUp(): Promise<string> {
  const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: individualBody() });
  expect(res.statusCode).toBe(201);
  return res.json().data.accessToken;
}

/** The client buys a home policy starting today: PROCESSING, with its invoice. */
async function buyHome(client: string, startDate = plusDays(0), endDate = plusDays(364)) {
  return ok(client, 'POST', '/client/policies', {
    policyType: 'HOME', currency: 'GHS', startDate, endDate, productId, businessType: 'NEW_BUSINESS',
    assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
  }, 201);
}

/** The client pays the whole invoice in cash at the branch: PENDING_APPROVAL. */
const payCash = (client: string, invoice: { id: string; amount: number }) =>
  ok(client, 'POST', '/client/transactions', { invoiceId: invoice.id, paymentMethod: 'CASH', amount: invoice.amount, payee: 'Kofi Mensah' }, 201);

const policyState = async (client: string, id: string) => (await ok(client, 'GET', `/client/policies/${id}`, undefined, 200)).state;

/** A policy bought, paid in cash and approved by the head of Claims and Payments: ACTIVE. */
async function activePolicy(client: string, approver: string) {
  const policy = await buyHome(client);
  const payment = await payCash(client, policy.invoice);
  await ok(approver, 'POST', `/staff/transactions/${payment.id}/approve`, { notes: 'Cash counted at the Accra till' }, 200);
  return policy;
}

it('a cash payment approved by a head of department makes the policy ACTIVE and its receipt downloads; a rejected one does not', async () => {
  const client = await clientSignUp();
  const head = await staffLogin('head.claims');
  const officer = await staffLogin('officer');
  const policy = await buyHome(client);
  expect(policy.state).toBe('PROCESSING');
  const payment = await payCash(client, policy.invoice);
  expect(payment).toMatchObject({ status: 'PENDING_APPROVAL', receiptNo: null });

  // Cash is not money in until someone above the till approves it.
  expect((await call(officer, 'POST', `/staff/transactions/${payment.id}/approve`, {})).statusCode).toBe(403);
  expect((await call(client, 'POST', `/staff/transactions/${payment.id}/approve`, {})).statusCode).toBe(403);
  expect((await call(client, 'GET', `/client/transactions/${payment.id}/receipt.pdf`)).statusCode).toBe(409);

  const approved = await ok(head, 'POST', `/staff/transactions/${payment.id}/approve`, { notes: 'Cash counted at the Accra till' }, 200);
  expect(approved).toMatchObject({ status: 'APPROVED', receiptNo: expect.stringMatching(/^RCT-\d{4,}$/), reviewedBy: { name: 'staff', email: 'head.claims@sandbox.coverline.example' } });
  expect(await policyState(client, policy.id)).toBe('ACTIVE');
  const receipt = await call(client, 'GET', `/client/transactions/${payment.id}/receipt.pdf`);
  expect(receipt.statusCode).toBe(200);
  expect(receipt.headers['content-type']).toMatch(/^application\/pdf/);
  expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  // Approved once: a second decision is a conflict.
  expect((await call(head, 'POST', `/staff/transactions/${payment.id}/reject`, { reason: 'Counted twice by mistake' })).statusCode).toBe(409);

  // The refused path: a bounced transfer is rejected with its reason, and the policy waits.
  const second = await buyHome(client);
  const transfer = await ok(client, 'POST', '/client/transactions', {
    invoiceId: second.invoice.id, paymentMethod: 'BANK_TRANSFER', amount: second.invoice.amount, payee: 'Kofi Mensah', paymentInstitution: 'GCB Bank',
  }, 201);
  expect((await call(head, 'POST', `/staff/transactions/${transfer.id}/reject`, {})).statusCode).toBe(400);
  const rejected = await ok(head, 'POST', `/staff/transactions/${transfer.id}/reject`, { reason: 'No transfer arrived in the GCB account' }, 200);
  expect(rejected.status).toBe('REJECTED');
  expect(await policyState(client, second.id)).toBe('PROCESSING');
  const [invoice] = await ok(client, 'GET', `/client/invoices?policyId=${second.id}`, undefined, 200);
  expect(invoice).toMatchObject({ status: 'UNPAID', isClosed: false });
  const notes = await ok(client, 'GET', '/client/account/notifications', undefined, 200);
  expect(JSON.stringify(notes)).toContain('No transfer arrived in the GCB account');
});

it('a claim reviewed and settled ends SETTLED and CLOSED, and the client sees every step; a repudiated one ends REJECTED', async () => {
  const client = await clientSignUp();
  const head = await staffLogin('head.claims');
  const officer = await staffLogin('officer');
  const policy = await activePolicy(client, head);
  const claimOf = (estimatedLossAmount: number) => ok(client, 'POST', '/client/claims', {
    policyId: policy.id, dateOfLoss: plusDays(0), dateOfNotification: plusDays(0), incidentLocation: 'House No. 14, Nii Ashie Street, East Legon',
    description: 'A burst pipe flooded the ground floor.', lossCategory: 'MEDICALS', estimatedLossAmount, assets: [policy.assets[0].id],
  }, 201);
  const claim = await claimOf(4850.75);
  expect(claim).toMatchObject({ status: 'ACTIVE', stage: 'REVIEW' });

  await ok(officer, 'POST', `/staff/claims/${claim.id}/reviews`, {
    inspectionNotes: 'Water damage to floor and two doors confirmed on site', adjustedSettlementAmount: 4000,
  }, 201);
  // Settling before the stage allows it is refused.
  const settlement = {
    amount: 3900, penaltyApplicable: 'FEE', penaltyValue: 100, recipient: 'Kofi Mensah', paymentDate: plusDays(0),
    paymentMethod: 'BANK_TRANSFER', paymentMethodInfo: 'GCB Bank, account 1041234567890',
  };
  expect((await call(head, 'POST', `/staff/claims/${claim.id}/settlements`, settlement)).statusCode).toBe(409);
  await ok(head, 'POST', `/staff/claims/${claim.id}/stage`, { stage: 'SETTLEMENT', notes: 'Cover confirmed, loss within the sum insured' }, 200);
  // More than the adjusted amount net of the penalty is refused.
  const over = await call(head, 'POST', `/staff/claims/${claim.id}/settlements`, { ...settlement, amount: 3900.01 });
  expect(over.statusCode).toBe(422);
  const settled = await ok(head, 'POST', `/staff/claims/${claim.id}/settlements`, settlement, 201);
  expect(settled).toMatchObject({ stage: 'SETTLED', status: 'CLOSED' });

  const seen = await ok(client, 'GET', `/client/claims/${claim.id}`, undefined, 200);
  expect(seen).toMatchObject({ stage: 'SETTLED', status: 'CLOSED' });
  expect(seen.reviews).toHaveLength(1);
  expect(seen.reviews[0]).toMatchObject({ adjustedSettlementAmount: 4000 });
  expect(seen.settlements).toHaveLength(1);
  expect(seen.settlements[0]).toMatchObject({ amount: 3900, paymentMethodInfo: 'GCB Bank, account 1041234567890' });
  expect(seen.meta.stageHistory.map((c: { to: string }) => c.to)).toEqual(['REVIEW', 'SETTLEMENT', 'SETTLED']);
  expect(seen.meta.statusHistory.map((c: { to: string }) => c.to)).toEqual(['ACTIVE', 'CLOSED']);

  // The refused path: repudiated, then rejected, and closed.
  const doubtful = await claimOf(900);
  await ok(head, 'POST', `/staff/claims/${doubtful.id}/stage`, { stage: 'REPUDIATION', notes: 'Damage predates the start of cover' }, 200);
  expect((await call(head, 'POST', `/staff/claims/${doubtful.id}/stage`, { stage: 'SETTLEMENT', notes: 'Changed our mind' })).statusCode).toBe(409);
  const rejected = await ok(head, 'POST', `/staff/claims/${doubtful.id}/stage`, { stage: 'REJECTED', notes: 'Repudiation letter sent to the client' }, 200);
  expect(rejected).toMatchObject({ stage: 'REJECTED', status: 'CLOSED' });
});

it('an approved closure CANCELS the policy; a rejected one leaves it ACTIVE', async () => {
  const client = await clientSignUp();
  const head = await staffLogin('head.claims');
  const exec = await staffLogin('exec');
  const kept = await activePolicy(client, head);
  const refused = await ok(client, 'POST', '/client/policies/closure', { policyId: kept.id, reason: 'Moving abroad for a year' }, 201);
  expect((await call(exec, 'POST', `/staff/policy-closures/${refused.id}/reject`, { reason: 'x' })).statusCode).toBe(400);
  const rejected = await ok(exec, 'POST', `/staff/policy-closures/${refused.id}/reject`, { reason: 'The lease runs until June; cover is still required' }, 200);
  expect(rejected.status).toBe('REJECTED');
  expect(await policyState(client, kept.id)).toBe('ACTIVE');

  const sold = await activePolicy(client, head);
  const request = await ok(client, 'POST', '/client/policies/closure', { policyId: sold.id, reason: 'House sold to a new owner' }, 201);
  const approved = await ok(exec, 'POST', `/staff/policy-closures/${request.id}/approve`, { notes: 'Sale deed seen' }, 200);
  expect(approved.status).toBe('APPROVED');
  expect(await policyState(client, sold.id)).toBe('CANCELLED');
  expect((await ok(client, 'GET', `/client/policies/closure/${request.id}`, undefined, 200)).status).toBe('APPROVED');
  expect((await call(exec, 'POST', `/staff/policy-closures/${request.id}/approve`, {})).statusCode).toBe(409);
});

it('a policy past its end date is EXPIRED by the lifecycle job, once', async () => {
  const client = await clientSignUp();
  const head = await staffLogin('head.claims');
  const policy = await activePolicy(client, head);
  expect(await policyState(client, policy.id)).toBe('ACTIVE');
  const worker = createWorker({ db: h.db, clock: h.clock, handlers: jobHandlers(h.app.services), recurring: RECURRING, intervalMs: 60_000, workerId: 'journey' });

  // Every job ready now (the journey's messages too), as a worker polling at that time would run them.
  const runReady = async () => { while (await worker.tick() > 0) { /* the next batch */ } };

  // The day before it ends, nothing happens; the day after, the job expires it.
  h.clock.set(`${policy.endDate}T12:00:00Z`);
  await runReady();
  expect(await policyState(client, policy.id)).toBe('ACTIVE');
  h.clock.set(`${plusDays(366)}T06:00:00Z`);
  await runReady();
  expect(await policyState(client, policy.id)).toBe('EXPIRED');
  await worker.tick();
  const history = await ok(client, 'GET', `/client/policies/${policy.id}/history`, undefined, 200);
  expect(history.filter((c: { to: string }) => c.to === 'EXPIRED')).toHaveLength(1);
});
