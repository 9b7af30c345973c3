import { activePolicy, standardClaim, serverDay, type TestPolicy } from '../helpers/claims.js';
import { individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, multipart, PDF } from '../helpers/multipart.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Staff handle claims (handlers/staffClaims): review, move to settlement or repudiation, settle
 * within the adjusted amount, close; every move recorded with the staff member and shown to the
 * client; and the forbidden paths (positions, tokens, reach, tenants, states, limits).
 */

type Session = Awaited<ReturnType<typeof staffSession>>;
let h: Harness;
let client: { token: string; id: string };
let policy: TestPolicy;
let officer: Session;
let head: Session;
let agent: Session;

beforeAll(async () => {
  h = await createHarness();
  const signed = await signUp(h);
  client = { token: signed.token, id: signed.account.id };
  policy = await activePolicy(h, client.token, await onlineProductId(h, 'HOME'));
  [officer, head, agent] = await Promise.all(['officer', 'head.claims', 'agent'].map((handle) => staffSession(h, handle)));
});
afterAll(async () => { await h.close(); });

const url = (id: string, action = '') => `/api/v1/staff/claims/${id}${action}`;
const getClaim = (id: string, as: { token: string } = head) => h.call({ method: 'GET', url: url(id), token: as.token });
const review = (id: string, payload: Record<string, unknown>, as: { token: string } = officer) =>
  h.call({ method: 'POST', url: url(id, '/reviews'), token: as.token, payload });
const moveTo = (id: string, stage: string, notes = `Moved to ${stage} after assessment`, as: { token: string } = head) =>
  h.call({ method: 'POST', url: url(id, '/stage'), token: as.token, payload: { stage, notes } });
const settle = (id: string, payload: Record<string, unknown>, as: { token: string } = head) =>
  h.call({ method: 'POST', url: url(id, '/settlements'), token: as.token, payload });
const close = (id: string, notes = 'File complete; closing it', as: { token: string } = head) =>
  h.call({ method: 'POST', url: url(id, '/close'), token: as.token, payload: { notes } });
const clientView = async (id: string) => (await h.call({ method: 'GET', url: `/api/v1/client/claims/${id}`, token: client.token })).json().data;

async function newClaim(): Promise<{ id: string; claimNo: string }> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: client.token, payload: standardClaim(h, policy) });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

function expectError(res: { statusCode: number; json: () => any }, statusCode: number, code: string, message?: string | RegExp) {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: statusCode, code });
  if (typeof message === 'string') expect(res.json().message).toBe(message);
  else if (message) expect(res.json().message).toMatch(message);
}

const settlement = (extra: Record<string, unknown> = {}) => ({
  amount: 3900, recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'MOBILE_MONEY', paymentMethodInfo: 'MTN MoMo 0244123456', ...extra,
});
const change = (c: { from: string | null; to: string; notes: string | null; staff: string | null; staffMember: { id: string } | null }) =>
  [c.from, c.to, c.notes, c.staff, c.staffMember?.id ?? null];

describe('the settlement path: review, SETTLEMENT, settle', () => {
  let claim: { id: string; claimNo: string };
  beforeAll(async () => { claim = await newClaim(); });

  it('shows staff the claim within reach, as the client sees it', async () => {
    const res = await getClaim(claim.id, officer);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(await clientView(claim.id));
  });

  it('refuses a move to SETTLEMENT before a review gives an adjusted amount (409 NO_ADJUSTED_AMOUNT), and settling in REVIEW (409)', async () => {
    expectError(await moveTo(claim.id, 'SETTLEMENT'), 409, 'NO_ADJUSTED_AMOUNT');
    expectError(await settle(claim.id, settlement()), 409, 'CLAIM_NOT_IN_SETTLEMENT', /is ACTIVE in REVIEW/);
  });

  it('records reviews by the officer and the head of claims, each named, the newest amount the one that counts', async () => {
    const documentId = await uploadPdf();
    expectError(await review(claim.id, { documents: [documentId] }), 400, 'VALIDATION_ERROR',
      'body: must have inspectionNotes, generalNotes or adjustedSettlementAmount');
    const first = await review(claim.id, { inspectionNotes: 'Ceiling and floor damaged', adjustedSettlementAmount: 5000, documents: [documentId] });
    expect(first.statusCode).toBe(201);
    const second = await review(claim.id, { generalNotes: 'Plumber invoice checked', adjustedSettlementAmount: 4200 }, head);
    expect(second.statusCode).toBe(201);
    const { reviews } = second.json().data;
    expect(reviews.map((r: any) => [r.createdBy, r.createdByStaff.id, r.createdByStaff.name, r.adjustedSettlementAmount]))
      .toEqual([[officer.id, officer.id, 'staff', 5000], [head.id, head.id, 'staff', 4200]]);
    expect(reviews[0].documents.map((d: { id: string }) => d.id)).toEqual([documentId]);
    // Reviewed: the client can no longer withdraw it.
    expect((await h.call({ method: 'DELETE', url: `/api/v1/client/claims/${claim.id}`, token: client.token })).statusCode).toBe(409);
  });

  it('lets only supervisors move the stage, and moves it to SETTLEMENT with the notes, telling the client', async () => {
    expectError(await moveTo(claim.id, 'SETTLEMENT', 'Officer deciding alone', officer), 403, 'NOT_PERMITTED');
    expectError(await moveTo(claim.id, 'SETTLEMENT', 'ok'), 400, 'VALIDATION_ERROR', /body\.notes/);
    expectError(await moveTo(claim.id, 'SETTLED'), 400, 'VALIDATION_ERROR', /body\.stage must be one of: SETTLEMENT, REPUDIATION, REJECTED/);
    expectError(await moveTo(claim.id, 'REJECTED'), 409, 'INVALID_STATE_TRANSITION', `Claim ${claim.claimNo} stage cannot move from REVIEW to REJECTED by a staff`);
    const res = await moveTo(claim.id, 'SETTLEMENT', 'Assessment agreed; proceed to settlement');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ stage: 'SETTLEMENT', status: 'ACTIVE' });
    expect(change(res.json().data.meta.stageHistory.at(-1))).toEqual(['REVIEW', 'SETTLEMENT', 'Assessment agreed; proceed to settlement', head.id, head.id]);
    const note = await h.db.selectFrom('notifications').select(['title', 'entity']).where('client_id', '=', client.id)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(note).toEqual({ title: `Claim ${claim.claimNo}: SETTLEMENT`, entity: { name: 'claim', id: claim.id } });
  });

  it('refuses a review after SETTLEMENT (409) and a move back (409 naming both stages)', async () => {
    expectError(await review(claim.id, { generalNotes: 'Too late' }), 409, 'CLAIM_NOT_IN_REVIEW');
    expectError(await moveTo(claim.id, 'REPUDIATION'), 409, 'INVALID_STATE_TRANSITION', /from SETTLEMENT to REPUDIATION/);
  });

  it('refuses a settlement over the adjusted amount net of penalty and contribution (422 naming the limit), and bad fields (400)', async () => {
    // 4200 less a 300 fee: 3900.
    expectError(await settle(claim.id, settlement({ amount: 3900.01, penaltyApplicable: 'FEE', penaltyValue: 300 })), 422, 'SETTLEMENT_EXCEEDS_ADJUSTED',
      'body.amount 3900.01 exceeds 3900.00, the adjusted settlement amount 4200.00 less a FEE penalty of 300.00');
    // 4200 less 10% (420) less a 100 contribution: 3680.
    expectError(await settle(claim.id, settlement({ amount: 3680.01, penaltyApplicable: 'PERCENTAGE', penaltyValue: 10, contributionApplicable: true,
      contributionAmount: 100 })), 422, 'SETTLEMENT_EXCEEDS_ADJUSTED', /exceeds 3680\.00, .* less a PERCENTAGE penalty of 420\.00 \(10%\) less the client's contribution of 100\.00/);
    expectError(await settle(claim.id, settlement({ amount: 4200.01 })), 422, 'SETTLEMENT_EXCEEDS_ADJUSTED', /exceeds 4200\.00/);
    expectError(await settle(claim.id, settlement({ paymentMethodInfo: 'X' })), 400, 'VALIDATION_ERROR', /^body\.paymentMethodInfo /);
    expectError(await settle(claim.id, settlement({ penaltyApplicable: 'FEE' })), 400, 'VALIDATION_ERROR', 'body.penaltyValue is required');
    expectError(await settle(claim.id, settlement({ penaltyApplicable: 'PERCENTAGE', penaltyValue: 101 })), 400, 'VALIDATION_ERROR', /^body\.penaltyValue must be <= 100/);
    expectError(await settle(claim.id, settlement({ penaltyValue: 10 })), 400, 'VALIDATION_ERROR', /body\.penaltyValue .*body\.penaltyApplicable/);
    expectError(await settle(claim.id, settlement({ contributionApplicable: true })), 400, 'VALIDATION_ERROR', 'body.contributionAmount is required');
    expectError(await settle(claim.id, settlement(), officer), 403, 'NOT_PERMITTED');
    expect((await getClaim(claim.id)).json().data).toMatchObject({ stage: 'SETTLEMENT', status: 'ACTIVE', settlements: [] });
  });

  it('settles at the limit: SETTLED and CLOSED with the settlement, both histories naming the head of claims, and the client sees it all', async () => {
    const res = await settle(claim.id, settlement({ amount: 3680, penaltyApplicable: 'PERCENTAGE', penaltyValue: 10, contributionApplicable: true,
      contributionAmount: 100 }));
    expect(res.statusCode).toBe(201);
    const settled = res.json().data;
    expect(settled).toMatchObject({ stage: 'SETTLED', status: 'CLOSED' });
    expect(settled.settlements).toEqual([{
      id: expect.any(String), amount: 3680, penaltyApplicable: 'PERCENTAGE', penaltyValue: 10, contributionApplicable: true, contributionAmount: 100,
      recipient: 'Kofi Mensah', paymentDate: serverDay(h, 0), paymentMethod: 'MOBILE_MONEY', paymentMethodInfo: 'MTN MoMo 0244123456',
      createdBy: head.id, createdByStaff: expect.objectContaining({ name: 'staff', id: head.id }), documents: [], createdAt: expect.any(String),
    }]);
    expect(settled.meta.stageHistory.map(change)).toEqual([
      [null, 'REVIEW', 'Claim submitted by the client', null, null],
      ['REVIEW', 'SETTLEMENT', 'Assessment agreed; proceed to settlement', head.id, head.id],
      ['SETTLEMENT', 'SETTLED', `Settled: 3680.00 GHS paid to Kofi Mensah on ${serverDay(h, 0)} (MOBILE_MONEY)`, head.id, head.id],
    ]);
    expect(settled.meta.statusHistory.map(change)).toEqual([
      [null, 'ACTIVE', 'Claim submitted by the client', null, null], ['ACTIVE', 'CLOSED', 'Closed on settlement', head.id, head.id],
    ]);
    const seen = await clientView(claim.id);
    expect(seen).toEqual(settled);
    expect(seen.reviews).toHaveLength(2);
    const stored = await h.db.selectFrom('claim_settlements').select(['amount', 'penalty_value', 'contribution_amount']).where('claim_id', '=', claim.id).execute();
    expect(stored).toEqual([{ amount: '3680.00', penalty_value: '10.00', contribution_amount: '100.00' }]);
  });

  it('refuses anything more on a settled, closed claim', async () => {
    expectError(await settle(claim.id, settlement({ amount: 1 })), 409, 'CLAIM_NOT_IN_SETTLEMENT');
    expectError(await moveTo(claim.id, 'REJECTED'), 409, 'CLAIM_CLOSED');
    expectError(await close(claim.id), 409, 'INVALID_STATE_TRANSITION', `Claim ${claim.claimNo} status cannot move from CLOSED to CLOSED by a staff`);
  });
});

describe('the repudiation path: REVIEW -> REPUDIATION -> REJECTED, closed', () => {
  it('repudiates, then rejects, which closes the claim in the same move', async () => {
    const claim = await newClaim();
    expectError(await close(claim.id), 409, 'CLAIM_UNDECIDED');
    expect((await moveTo(claim.id, 'REPUDIATION', 'Loss predates the cover')).statusCode).toBe(200);
    expectError(await moveTo(claim.id, 'SETTLEMENT'), 409, 'INVALID_STATE_TRANSITION', /from REPUDIATION to SETTLEMENT/);
    expectError(await moveTo(claim.id, 'REPUDIATION'), 409, 'INVALID_STATE_TRANSITION', /from REPUDIATION to REPUDIATION/);
    expectError(await review(claim.id, { generalNotes: 'More notes' }), 409, 'CLAIM_NOT_IN_REVIEW');
    expectError(await settle(claim.id, settlement()), 409, 'CLAIM_NOT_IN_SETTLEMENT');
    const res = await moveTo(claim.id, 'REJECTED', 'Repudiation confirmed by the committee');
    expect(res.statusCode).toBe(200);
    const rejected = res.json().data;
    expect(rejected).toMatchObject({ stage: 'REJECTED', status: 'CLOSED' });
    expect(rejected.meta.stageHistory.slice(1).map(change)).toEqual([
      ['REVIEW', 'REPUDIATION', 'Loss predates the cover', head.id, head.id],
      ['REPUDIATION', 'REJECTED', 'Repudiation confirmed by the committee', head.id, head.id],
    ]);
    expect(rejected.meta.statusHistory.slice(1).map(change)).toEqual([['ACTIVE', 'CLOSED', 'Repudiation confirmed by the committee', head.id, head.id]]);
    expect(await clientView(claim.id)).toEqual(rejected);
    expectError(await moveTo(claim.id, 'REJECTED'), 409, 'CLAIM_CLOSED');
  });

  it('closes a decided claim left ACTIVE, and only that', async () => {
    const claim = await newClaim();
    // A claim rejected before rejecting closed it: decided, still open.
    await h.db.updateTable('claims').set({ stage: 'REJECTED' }).where('id', '=', claim.id).execute();
    expectError(await close(claim.id, 'Done', head), 400, 'VALIDATION_ERROR', /body\.notes/);
    expectError(await close(claim.id, 'Closing it alone', officer), 403, 'NOT_PERMITTED');
    const res = await close(claim.id, 'Rejection letter sent; closing');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ stage: 'REJECTED', status: 'CLOSED' });
    expect(change(res.json().data.meta.statusHistory.at(-1))).toEqual(['ACTIVE', 'CLOSED', 'Rejection letter sent; closing', head.id, head.id]);
  });
});

describe('who may handle which claims', () => {
  let claim: { id: string };
  beforeAll(async () => { claim = await newClaim(); });

  it('refuses an agent reviewing (403 NOT_PERMITTED) and a client token (403 WRONG_TOKEN_KIND)', async () => {
    expectError(await review(claim.id, { generalNotes: 'Agent notes' }, agent), 403, 'NOT_PERMITTED');
    for (const res of [await getClaim(claim.id, client), await review(claim.id, { generalNotes: 'Client notes' }, client),
      await moveTo(claim.id, 'REPUDIATION', 'Client deciding', client), await settle(claim.id, settlement(), client)]) {
      expectError(res, 403, 'WRONG_TOKEN_KIND');
    }
  });

  it("answers 404 for a claim out of reach, another tenant's, or unknown", async () => {
    // The agent's reach is its own clients: this one signed up on its own.
    expectError(await getClaim(claim.id, agent), 404, 'NOT_FOUND');
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    const other = await h.db.insertInto('claims').values({
      tenant_id: h.otherTenantId, claim_no: 'CLM-9001', client_id: foreign.account.id, policy_id: policy.id, status: 'ACTIVE', stage: 'REVIEW',
      claim_type: 'CASHBACK', date_of_notification: serverDay(h, 0), estimated_loss_amount: '10.00', currency: 'GHS', exchange_rate: '1',
    }).returning('id').executeTakeFirstOrThrow();
    for (const id of [other.id, '00000000-0000-4000-8000-000000000000']) {
      expectError(await getClaim(id), 404, 'NOT_FOUND', 'Claim not found');
      expectError(await review(id, { generalNotes: 'Not ours' }), 404, 'NOT_FOUND');
      expectError(await moveTo(id, 'REPUDIATION'), 404, 'NOT_FOUND');
      expectError(await settle(id, settlement()), 404, 'NOT_FOUND');
    }
    expect(await h.db.selectFrom('claims').select(['stage', 'status']).where('id', '=', other.id).executeTakeFirstOrThrow())
      .toEqual({ stage: 'REVIEW', status: 'ACTIVE' });
  });

  it("refuses a review naming a document that is not the client's (404)", async () => {
    const theirs = await signUp(h);
    const documentId = await uploadPdf(theirs.token);
    expectError(await review(claim.id, { generalNotes: 'With evidence', documents: [documentId] }), 404, 'NOT_FOUND', /body\.documents\[0\]/);
  });
});

async function uploadPdf(token = client.token): Promise<string> {
  const { payload, headers } = multipart([file('assessment.pdf', PDF, 'application/pdf')]);
  const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token });
  expect(res.statusCode).toBe(201);
  return res.json().data[0].id;
}
