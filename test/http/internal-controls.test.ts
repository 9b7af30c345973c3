import { buyHomePolicy, corporateBody, individualBody, onlineProductId, setOwnPassword, signUp, staffClientBody } from '../helpers/clients.js';
import { activePolicy, serverDay, standardClaim, type TestPolicy } from '../helpers/claims.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Internal controls of issue 27, each finding reproduced as it was found and now refused:
 * - four eyes over a client account staff opened: a head of department opened an account with a
 *   password of their choosing, signed in as the client, recorded CASH through
 *   `/client/transactions` and approved it. Since 1.2 staff choose no password (400 naming
 *   `body.password`), and whoever opened the account (so chose where its set-up code goes) or last
 *   set its credentials may not approve its payments (403 CREDENTIALS_SET_BY_APPROVER);
 * - claims authority: a head of department reviewed a claim with adjustedSettlementAmount 900000
 *   (estimate 100, sum insured 450000), moved it to SETTLEMENT and settled it alone (201 SETTLED
 *   900000). Now a review or settlement above the sum insured is 422 ABOVE_SUM_INSURED, a
 *   settlement above the settler's position limit 403 ABOVE_SETTLEMENT_AUTHORITY, and above the
 *   four-eyes threshold the reviewer may not settle (403 SETTLER_IS_REVIEWER); the limits are the
 *   company's own within the defaults (GET / PUT /staff/settlement-limits).
 */

type Session = Awaited<ReturnType<typeof staffSession>>;
let h: Harness;
let head: Session;
let branchManager: Session;
let exec: Session;
let headClaims: Session;
let officer: Session;
let homeProduct: string;

beforeAll(async () => {
  h = await createHarness();
  [head, branchManager, exec, headClaims, officer] = await Promise.all(
    ['head.sales', 'branch.manager', 'exec', 'head.claims', 'officer'].map((handle) => staffSession(h, handle)));
  homeProduct = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });

const expectError = (res: { statusCode: number; json(): any }, status: number, code: string, message?: RegExp) => {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
  if (message) expect(res.json().message).toMatch(message);
};
const approve = (as: { token: string }, id: string) => h.call({ method: 'POST', url: `/api/v1/staff/transactions/${id}/approve`, token: as.token });

/** A client `as` opens (no password), which sets its own with the code sent to the e-mail `as` chose, signs in and records CASH for its new policy. */
async function staffMadeClientPaysCash(as: Session) {
  const body = staffClientBody(individualBody());
  const opened = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: as.token, payload: body });
  expect(opened.statusCode).toBe(201);
  // Whoever reads the inbox the opener chose holds the way in: here the opener reads the set-up code.
  const password = await setOwnPassword(h, body.email);
  const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password } });
  expect(login.statusCode).toBe(200);
  const token = login.json().data.accessToken as string;
  const policy = await buyHomePolicy(h, token, homeProduct);
  const cash = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token,
    payload: { invoiceId: policy.invoiceId, paymentMethod: 'CASH', transactionType: 'NEW_BUSINESS' } });
  expect(cash.statusCode).toBe(201);
  return { clientId: opened.json().data.id as string, transactionId: cash.json().data.id as string };
}

describe('createStaffClient: staff never choose a client\'s password (contract 1.2)', () => {
  it('refuses a body with a password, 400 naming the password, for people and companies alike', async () => {
    for (const body of [staffClientBody(individualBody()), staffClientBody(corporateBody())]) {
      const res = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: head.token, payload: { ...body, password: 'Chosen-By-Head-1' } });
      expectError(res, 400, 'VALIDATION_ERROR', /^body has an unknown property 'password'$/);
    }
  });

  it('records the opener as having chosen the way in, and sends the client its set-up code', async () => {
    const body = staffClientBody(individualBody());
    const res = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: head.token, payload: body });
    expect(res.statusCode).toBe(201);
    const row = await h.db.selectFrom('clients').select(['password_hash', 'credentials_set_by_staff_id', 'created_by_staff_id'])
      .where('id', '=', res.json().data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, credentials_set_by_staff_id: head.id, created_by_staff_id: head.id });
    const code = await h.db.selectFrom('outbox').select('template').where('recipient', '=', body.email).where('template', '=', 'set-password-code').execute();
    expect(code).toHaveLength(1);
  });
});

describe('approveTransaction: four eyes over a client account staff opened', () => {
  it('refuses the head who opened the account, signed in as the client and recorded CASH (403 CREDENTIALS_SET_BY_APPROVER); another supervisor approves', async () => {
    const { transactionId } = await staffMadeClientPaysCash(head);
    const refused = await approve(head, transactionId);
    expectError(refused, 403, 'CREDENTIALS_SET_BY_APPROVER', /opened the account of the client paying TRX-\d+/);
    const still = await h.db.selectFrom('transactions').select('status').where('id', '=', transactionId).executeTakeFirstOrThrow();
    expect(still.status).toBe('PENDING_APPROVAL');
    // Positive control: a supervisor who had no way into the account approves it.
    const approved = await approve(branchManager, transactionId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'APPROVED', reviewedBy: { id: branchManager.id } });
  });

  it('refuses whoever last set the client\'s credentials (a password, e-mail or phone set by staff), as well as the opener', async () => {
    const { clientId, transactionId } = await staffMadeClientPaysCash(head);
    // No staff call sets a client's credentials in 1.2; any that does records itself here, as this stands for.
    await h.db.updateTable('clients').set({ credentials_set_by_staff_id: branchManager.id }).where('id', '=', clientId).execute();
    expectError(await approve(branchManager, transactionId), 403, 'CREDENTIALS_SET_BY_APPROVER', /last set the credentials of the client paying/);
    expectError(await approve(head, transactionId), 403, 'CREDENTIALS_SET_BY_APPROVER');
    const approved = await approve(exec, transactionId);
    expect(approved.statusCode).toBe(200);
  });

  it('leaves rejection to anyone within reach, the opener included (money that never came is not a payout)', async () => {
    const { transactionId } = await staffMadeClientPaysCash(head);
    const res = await h.call({ method: 'POST', url: `/api/v1/staff/transactions/${transactionId}/reject`, token: head.token,
      payload: { reason: 'No cash was handed over at the counter' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('REJECTED');
  });
});

describe('settleClaim: claims authority (sum insured, position limits, four eyes)', () => {
  let client: { token: string };
  let policy: TestPolicy;
  beforeAll(async () => {
    const signed = await signUp(h);
    client = { token: signed.token };
    // A HOME policy of two houses, 450 000 and 250 000: each house carries its own sum insured.
    policy = await activePolicy(h, client.token, homeProduct);
  });

  const claimUrl = (id: string, action: string) => `/api/v1/staff/claims/${id}${action}`;
  const review = (as: Session, id: string, adjustedSettlementAmount: number) =>
    h.call({ method: 'POST', url: claimUrl(id, '/reviews'), token: as.token, payload: { generalNotes: 'Assessed on site', adjustedSettlementAmount } });
  const toSettlement = (as: Session, id: string) =>
    h.call({ method: 'POST', url: claimUrl(id, '/stage'), token: as.token, payload: { stage: 'SETTLEMENT', notes: 'Assessment agreed; settle it' } });
  const settle = (as: Session, id: string, amount: number) => h.call({ method: 'POST', url: claimUrl(id, '/settlements'), token: as.token, payload: {
    amount, recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'BANK_TRANSFER', paymentMethodInfo: 'GCB 1234567890',
  } });
  async function newClaim(estimatedLossAmount = 100) {
    const res = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: client.token, payload: standardClaim(h, policy, { estimatedLossAmount }) });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; claimNo: string };
  }
  /** A claim reviewed by `reviewer` at `amount` and moved to SETTLEMENT by a head. */
  async function inSettlement(reviewer: Session, amount: number) {
    const claim = await newClaim();
    expect((await review(reviewer, claim.id, amount)).statusCode).toBe(201);
    expect((await toSettlement(headClaims, claim.id)).statusCode).toBe(200);
    return claim;
  }

  it('the finding: a head reviews 900000 on a house insured for 450000 (estimate 100): 422 ABOVE_SUM_INSURED naming the sum insured', async () => {
    const claim = await newClaim(100);
    expectError(await review(headClaims, claim.id, 900000), 422, 'ABOVE_SUM_INSURED',
      new RegExp(`^body.adjustedSettlementAmount 900000.00 is above the sum insured of the claimed asset of policy ${policy.policyNo}, 450000.00 GHS$`));
    // Nothing recorded, so nothing to move to SETTLEMENT.
    expectError(await toSettlement(headClaims, claim.id), 409, 'NO_ADJUSTED_AMOUNT');
  });

  it('the finding, settled: an adjusted amount above the sum insured recorded before 1.2 is still never paid (422), even by an executive', async () => {
    const claim = await inSettlement(headClaims, 400000);
    // A review written before the cap existed.
    await h.db.updateTable('claim_reviews').set({ adjusted_settlement_amount: '900000.00' }).where('claim_id', '=', claim.id).execute();
    expectError(await settle(headClaims, claim.id, 900000), 422, 'ABOVE_SUM_INSURED', /^body.amount 900000.00 is above the sum insured/);
    expectError(await settle(exec, claim.id, 450000.01), 422, 'ABOVE_SUM_INSURED');
    const res = await settle(exec, claim.id, 450000);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ stage: 'SETTLED', status: 'CLOSED' });
  });

  it('refuses a settlement above the settler\'s position limit (403 ABOVE_SETTLEMENT_AUTHORITY naming the limit); one whose limit covers it settles', async () => {
    const claim = await inSettlement(officer, 120000);
    expectError(await settle(headClaims, claim.id, 120000), 403, 'ABOVE_SETTLEMENT_AUTHORITY',
      /^body.amount 120000.00 GHS is above your settlement limit as HEAD_OF_DEPARTMENT, 50000.00 GHS/);
    const res = await settle(branchManager, claim.id, 120000);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.stage).toBe('SETTLED');
  });

  it('above the four-eyes threshold the reviewer may not settle (403 SETTLER_IS_REVIEWER); another supervisor within limits does', async () => {
    const claim = await inSettlement(headClaims, 12000);
    expectError(await settle(headClaims, claim.id, 12000), 403, 'SETTLER_IS_REVIEWER', /above the four-eyes threshold of 10000.00 GHS/);
    const res = await settle(branchManager, claim.id, 12000);
    expect(res.statusCode).toBe(201);
  });

  it('lets the reviewer settle at or below the threshold, within their limit (positive control)', async () => {
    const claim = await inSettlement(headClaims, 10000);
    expect((await settle(headClaims, claim.id, 10000)).statusCode).toBe(201);
  });
});

describe('setSettlementLimits: a company\'s own limits, within the defaults', () => {
  const put = (as: Session, payload: object) => h.call({ method: 'PUT', url: '/api/v1/staff/settlement-limits', token: as.token, payload });
  const get = (as: Session) => h.call({ method: 'GET', url: '/api/v1/staff/settlement-limits', token: as.token });

  it('answers the defaults to any normal staff member', async () => {
    const res = await get(officer);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      currency: 'GHS', fourEyesThreshold: 10000, defaultFourEyesThreshold: 10000, updatedAt: null, updatedBy: null, reason: null,
      limits: [
        { position: 'LEVEL_OFFICER', limit: 0, defaultLimit: 0 }, { position: 'HEAD_OF_DEPARTMENT', limit: 50000, defaultLimit: 50000 },
        { position: 'BRANCH_MANAGER', limit: 200000, defaultLimit: 200000 }, { position: 'EXECUTIVE_MANAGER', limit: null, defaultLimit: null },
      ],
    });
  });

  it('lets only executive managers set them, never above the default (422 naming the figure), and the settlement check follows', async () => {
    expectError(await put(branchManager, { limits: { HEAD_OF_DEPARTMENT: 1000 } }), 403, 'NOT_PERMITTED');
    expectError(await put(exec, { limits: { HEAD_OF_DEPARTMENT: 80000 } }), 422, 'SETTLEMENT_LIMIT_ABOVE_DEFAULT', /^body.limits.HEAD_OF_DEPARTMENT 80000.00 is above/);
    expectError(await put(exec, { fourEyesThreshold: 20000 }), 422, 'SETTLEMENT_LIMIT_ABOVE_DEFAULT', /body.fourEyesThreshold/);
    const set = await put(exec, { limits: { HEAD_OF_DEPARTMENT: 5000 }, fourEyesThreshold: 2000, reason: 'Board resolution 2026-14' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({
      fourEyesThreshold: 2000, updatedAt: expect.any(String), reason: 'Board resolution 2026-14', updatedBy: { name: 'staff', id: exec.id },
    });
    expect((await get(officer)).json().data).toMatchObject({ reason: 'Board resolution 2026-14', updatedBy: { id: exec.id } });
    expect(set.json().data.limits[1]).toEqual({ position: 'HEAD_OF_DEPARTMENT', limit: 5000, defaultLimit: 50000 });

    const signed = await signUp(h);
    const policy = await activePolicy(h, signed.token, homeProduct);
    const filed = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: signed.token, payload: standardClaim(h, policy) });
    const claimId = filed.json().data.id;
    const base = `/api/v1/staff/claims/${claimId}`;
    expect((await h.call({ method: 'POST', url: `${base}/reviews`, token: officer.token, payload: { adjustedSettlementAmount: 6000 } })).statusCode).toBe(201);
    expect((await h.call({ method: 'POST', url: `${base}/stage`, token: headClaims.token, payload: { stage: 'SETTLEMENT', notes: 'Agreed; settle it' } })).statusCode).toBe(200);
    const settlement = { amount: 6000, recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'CASH', paymentMethodInfo: 'At the Osu branch' };
    expectError(await h.call({ method: 'POST', url: `${base}/settlements`, token: headClaims.token, payload: settlement }), 403, 'ABOVE_SETTLEMENT_AUTHORITY', /5000.00 GHS/);

    // Back to the defaults: null restores each figure.
    const reset = await put(exec, { limits: { HEAD_OF_DEPARTMENT: null }, fourEyesThreshold: null });
    expect(reset.json().data).toMatchObject({ fourEyesThreshold: 10000 });
    expect(reset.json().data.limits[1].limit).toBe(50000);
    expect((await h.call({ method: 'POST', url: `${base}/settlements`, token: headClaims.token, payload: settlement })).statusCode).toBe(201);
  });
});
