import { sql } from 'kysely';
import type { PolicyState } from '../../server/platform/db/schema.js';
import { ApiError } from '../../server/platform/errors.js';
import { CLAIM_STAGES, CLAIM_STATUSES } from '../../server/domain/states/claim.js';
import { assertTransition, canTransition, type Machine, type Mover } from '../../server/domain/states/machine.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { auth, type Caller, castOfClients, individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import {
  activePolicy as activePolicyOf, backdate, homePolicy as homePolicyOf, serverDay, standardClaim as standardClaimOf, type TestPolicy,
} from '../helpers/claims.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, multipart, PDF } from '../helpers/multipart.js';
import { sandboxStaff } from '../helpers/staff.js';

let h: Harness;
let token: string;
let clientId: string;
let otherToken: string;
let otherTenant: Caller;
let productId: string;
let microProductId: string;

/** A day relative to the server's clock, `YYYY-MM-DD`. */
const day = (offset = 0) => serverDay(h, offset);

beforeAll(async () => {
  h = await createHarness();
  ({ token, clientId, otherToken, otherTenant } = await castOfClients(h));
  productId = await onlineProductId(h, 'HOME');
  // The sandbox sells no micro-insurer's product: a copy of the home product, underwritten by the micro-insurer.
  const micro = await sql<{ id: string }>`insert into products (owner_tenant_id, insurer_id, name, code, description, premium_rates, category,
      sub_category, benefits, status, distribution, standard_commission, overrider_commission, other_commission)
    select owner_tenant_id, (select id from companies where identifier = 'KENTE-MICRO'), 'Kente Micro Savings', 'KENTE-MICRO-SAVINGS', description,
      premium_rates, category, sub_category, benefits, status, distribution, standard_commission, overrider_commission, other_commission
    from products where id = ${productId} returning id`.execute(h.db);
  microProductId = micro.rows[0].id;
});
afterAll(async () => { await h.close(); });

const base = '/api/v1/client/claims';
const create = (body: Record<string, unknown>, as: Caller = token) => h.call({ method: 'POST', url: base, ...auth(as), payload: body });
const get = (id: string, as: Caller = token) => h.call({ method: 'GET', url: `${base}/${id}`, ...auth(as) });
const list = (query = '', as: Caller = token) => h.call({ method: 'GET', url: `${base}${query}`, ...auth(as) });
const withdraw = (id: string, as: Caller = token) => h.call({ method: 'DELETE', url: `${base}/${id}`, ...auth(as) });

const activePolicy = (as = token) => activePolicyOf(h, as, productId);
const homePolicy = (as = token) => homePolicyOf(h, as, productId);
/** A policy put in `state` the way staff and jobs will (they come later), its term 30 days old. */
async function policyIn(state: PolicyState, product = productId): Promise<TestPolicy> {
  const policy = await backdate(h, await homePolicy(), 30);
  await h.db.updateTable('policies').set({ state, product_id: product }).where('id', '=', policy.id).execute();
  return policy;
}

const standardClaim = (policy: TestPolicy, extra: Record<string, unknown> = {}) => standardClaimOf(h, policy, extra);
const microClaim = (policy: TestPolicy, extra: Record<string, unknown> = {}) => ({
  policyId: policy.id, claimType: 'PARTIAL_WITHDRAWAL', estimatedLossAmount: 350, description: 'School fees for the new term', ...extra,
});

const vehicleLoss = {
  type: 'VEHICLE_DAMAGE', phoneNumber: '+233244123456', damagedItems: ['Front bumper', 'Headlamp'], claimantName: 'Ama Owusu',
  registrationNumber: 'GR 4521-22', vehicleMake: 'Toyota', repairEstimate: 2300.4,
};
const injuryLoss = {
  type: 'INJURY_TO_PERSON', phoneNumber: '0244987654', damagedItems: [], claimantName: 'Efua Boateng', fullName: 'Kwame Boateng', age: 34,
  gender: 'MALE', nextOfKin: 'Efua Boateng', compensationAmount: 15000, injuryDescription: 'Fractured left wrist',
};
const propertyLoss = { type: 'PROPERTY_DAMAGE', phoneNumber: '+233201112223', damagedItems: ['Boundary wall'], claimantName: 'Yaw Asante' };

async function uploadPdf(as = token): Promise<string> {
  const { payload, headers } = multipart([file('police-report.pdf', PDF, 'application/pdf')]);
  const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token: as });
  expect(res.statusCode).toBe(201);
  return res.json().data[0].id;
}

async function created(body: Record<string, unknown>, as: Caller = token) {
  const res = await create(body, as);
  expect({ status: res.statusCode, body: res.statusCode === 201 ? null : res.json() }).toEqual({ status: 201, body: null });
  return res.json().data;
}

async function expectError(res: { statusCode: number; json: () => any }, statusCode: number, message: string | RegExp, code?: string) {
  expect(res.statusCode).toBe(statusCode);
  const body = res.json();
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
  if (code) expect(body.code).toBe(code);
}

describe('the claim state machine (server/domain/states/claim.ts)', () => {
  const movers: Mover[] = ['client', 'staff', 'system', 'provider'];
  /** Every (from, to, mover) of a machine, allowed or not. */
  function edges<S extends string>(machine: Machine<S>) {
    const states = Object.keys(machine) as S[];
    return states.flatMap((from) => states.flatMap((to) => movers.map((by) => ({ from, to, by, allowed: canTransition(machine, from, to, by) }))));
  }

  it('lets only staff close an open claim, and nothing reopens one', () => {
    const allowed = edges(CLAIM_STATUSES).filter((edge) => edge.allowed).map(({ from, to, by }) => `${from}->${to} by ${by}`);
    expect(allowed).toEqual(['ACTIVE->CLOSED by staff']);
  });

  it('lets only staff move the stage: REVIEW -> SETTLEMENT -> SETTLED, or REVIEW -> REPUDIATION -> REJECTED', () => {
    const allowed = edges(CLAIM_STAGES).filter((edge) => edge.allowed).map(({ from, to, by }) => `${from}->${to} by ${by}`).sort();
    expect(allowed).toEqual([
      'REPUDIATION->REJECTED by staff', 'REVIEW->REPUDIATION by staff', 'REVIEW->SETTLEMENT by staff', 'SETTLEMENT->SETTLED by staff',
    ]);
  });

  it('refuses every other edge with 409 INVALID_STATE_TRANSITION', () => {
    const forbidden = [...edges(CLAIM_STATUSES).map((e) => ({ ...e, machine: CLAIM_STATUSES as Machine<string> })),
      ...edges(CLAIM_STAGES).map((e) => ({ ...e, machine: CLAIM_STAGES as Machine<string> }))].filter((edge) => !edge.allowed);
    // 2 statuses and 5 stages, 4 movers each: 16 + 100 edges, 5 of them allowed.
    expect(forbidden).toHaveLength(16 + 100 - 5);
    for (const { machine, from, to, by } of forbidden) {
      let thrown: unknown;
      try { assertTransition(machine, 'Claim CLM-0001', from, to, by); } catch (error) { thrown = error; }
      expect(thrown).toBeInstanceOf(ApiError);
      expect(thrown).toMatchObject({ statusCode: 409, code: 'INVALID_STATE_TRANSITION' });
    }
    expect(() => assertTransition(CLAIM_STAGES, 'Claim CLM-0001', 'REVIEW', 'SETTLEMENT', 'staff')).not.toThrow();
  });
});

describe('createClaim: POST /client/claims', () => {
  it('makes a standard claim ACTIVE in REVIEW, numbered, with its assets, third party losses and documents, and tells the client', async () => {
    const policy = await activePolicy();
    const documentId = await uploadPdf();
    const claim = await created(standardClaim(policy, {
      assets: [policy.assetIds[1], policy.assetIds[0]], thirdPartyLoss: [vehicleLoss, injuryLoss, propertyLoss], documentIds: [documentId],
    }));
    expect(claim).toMatchObject({
      claimNo: expect.stringMatching(/^CLM-\d{4}$/), status: 'ACTIVE', stage: 'REVIEW', policyId: policy.id, claimType: null,
      policy: { id: policy.id, policyNo: policy.policyNo, policyType: 'HOME', state: 'ACTIVE', currency: 'GHS', startDate: policy.startDate, endDate: policy.endDate },
      dateOfLoss: day(-2), dateOfNotification: day(-1), lossCategory: 'MEDICALS', estimatedLossAmount: 4850.75,
      currency: 'GHS', exchangeRate: 1, convertedEstimatedLossAmount: 4850.75,
      assets: [policy.assetIds[1], policy.assetIds[0]], thirdPartyLoss: [vehicleLoss, injuryLoss, propertyLoss],
      documentIds: [documentId], documents: [{ id: documentId, name: 'police-report.pdf', contentType: 'application/pdf' }],
      settlements: [], reviews: [],
    });
    const first = { from: null, notes: 'Claim submitted by the client', staff: null, staffMember: null, createdAt: claim.createdAt };
    expect(claim.meta).toEqual({ statusHistory: [{ ...first, to: 'ACTIVE' }], stageHistory: [{ ...first, to: 'REVIEW' }] });
    const note = await h.db.selectFrom('notifications').select(['title', 'entity']).where('client_id', '=', clientId)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(note).toEqual({ title: `Claim ${claim.claimNo} received`, entity: { name: 'claim', id: claim.id } });
    // Money is stored as the decimal sent, not a float's neighbour.
    const stored = await h.db.selectFrom('claim_third_party_losses').select(['type', 'amount']).where('claim_id', '=', claim.id).orderBy('position').execute();
    expect(stored).toEqual([{ type: 'VEHICLE_DAMAGE', amount: '2300.40' }, { type: 'INJURY_TO_PERSON', amount: '15000.00' }, { type: 'PROPERTY_DAMAGE', amount: null }]);
    expect((await get(claim.id)).json().data).toEqual(claim);
  });

  it("defaults dateOfNotification to the server's today and currency to the policy's, and keeps money exact", async () => {
    const policy = await activePolicy();
    h.clock.advance(3 * 86_400_000);
    const { dateOfNotification: _left, ...body } = standardClaim(policy, { estimatedLossAmount: 1234567.89 });
    const claim = await created(body);
    expect(claim).toMatchObject({ dateOfNotification: day(0), currency: 'GHS', exchangeRate: 1, estimatedLossAmount: 1234567.89 });
    const row = await h.db.selectFrom('claims').select(['estimated_loss_amount', 'date_of_notification']).where('id', '=', claim.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ estimated_loss_amount: '1234567.89', date_of_notification: day(0) });
  });

  it('takes another currency at the rate sent (converting as a decimal) and requires a rate for it', async () => {
    const policy = await activePolicy();
    await expectError(await create(standardClaim(policy, { currency: 'USD' })), 400,
      "body.exchangeRate is required for USD, which is neither the policy's currency (GHS) nor the base currency");
    const claim = await created(standardClaim(policy, { currency: 'USD', exchangeRate: 14.75, estimatedLossAmount: 0.1 }));
    expect(claim).toMatchObject({ currency: 'USD', exchangeRate: 14.75, estimatedLossAmount: 0.1, convertedEstimatedLossAmount: 1.48 });
    await expectError(await create(standardClaim(policy, { exchangeRate: 2 })), 400, 'body.exchangeRate must be 1 for GHS, the base currency');
    await expectError(await create(standardClaim(policy, { currency: 'XTS', exchangeRate: 2 })), 400, /^body\.currency: XTS is not an ACTIVE currency/);
  });

  it("takes a micro-insurance claim on a micro-insurer's policy only, and a standard claim only on others' (400 naming claimType)", async () => {
    const micro = await policyIn('ACTIVE', microProductId);
    const claim = await created(microClaim(micro));
    expect(claim).toMatchObject({
      claimType: 'PARTIAL_WITHDRAWAL', dateOfLoss: null, incidentLocation: null, lossCategory: null, assets: [], thirdPartyLoss: [],
      estimatedLossAmount: 350, dateOfNotification: day(0), status: 'ACTIVE', stage: 'REVIEW',
    });
    await expectError(await create(standardClaim(micro)), 400,
      `body.claimType is required: policy ${micro.policyNo} is with a micro-insurer, which takes micro-insurance claims only`, 'CLAIM_SHAPE_MISMATCH');
    const standard = await policyIn('ACTIVE');
    await expectError(await create(microClaim(standard)), 400,
      `body.claimType: policy ${standard.policyNo} is not with a micro-insurer; send a standard claim`, 'CLAIM_SHAPE_MISMATCH');
    // Maturity benefits are claimed once the term has run.
    expect((await created(microClaim(await policyIn('COMPLETE', microProductId), { claimType: 'CASHBACK' }))).claimType).toBe('CASHBACK');
    await expectError(await create(microClaim(await policyIn('CANCELLED', microProductId))), 409, /is CANCELLED; claims are taken on ACTIVE/, 'POLICY_NOT_CLAIMABLE');
    await expectError(await create(microClaim(micro, { dateOfNotification: day(-31) })), 400,
      `body.dateOfNotification must not be before the policy's startDate (${micro.startDate})`);
  });

  it('answers a bad body with 400 naming the field, in the shape the body is', async () => {
    const policy = await activePolicy();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...standardClaim(policy), lossCategory: undefined }, 'body.lossCategory is required'],
      [{ ...standardClaim(policy), assets: undefined }, 'body.assets is required'],
      [standardClaim(policy, { assets: [] }), 'body.assets must NOT have fewer than 1 items'],
      [standardClaim(policy, { estimatedLossAmount: -1 }), 'body.estimatedLossAmount must be >= 0'],
      [standardClaim(policy, { lossCategory: 'THEFT' }), 'body.lossCategory must be one of: MEDICALS, CANCELLATION, DELAY, LOSS_OF_BAGGAGE'],
      [standardClaim(policy, { claimNo: 'CLM-9999' }), "body has an unknown property 'claimNo'"],
      [{ policyId: policy.id, claimType: 'LOAN' }, 'body.estimatedLossAmount is required'],
      [microClaim(policy, { estimatedLossAmount: -5 }), 'body.estimatedLossAmount must be >= 0'],
      [microClaim(policy, { claimType: 'BONUS' }), 'body.claimType must be one of: PARTIAL_WITHDRAWAL, FULL_WITHDRAWAL, SURRENDER, CASHBACK, HEALTH, DEATH, LOAN'],
      [microClaim(policy, { assets: policy.assetIds }), "body has an unknown property 'assets'"],
      [standardClaim(policy, { thirdPartyLoss: [{ ...vehicleLoss, repairEstimate: undefined }] }), 'body.thirdPartyLoss[0].repairEstimate is required'],
      [standardClaim(policy, { thirdPartyLoss: [{ ...vehicleLoss, repairEstimate: -1 }] }), 'body.thirdPartyLoss[0].repairEstimate must be >= 0'],
      [standardClaim(policy, { thirdPartyLoss: [propertyLoss, { ...injuryLoss, compensationAmount: -0.01 }] }), 'body.thirdPartyLoss[1].compensationAmount must be >= 0'],
      [standardClaim(policy, { thirdPartyLoss: [{ ...injuryLoss, type: 'DEATH', nextOfKin: undefined }] }), 'body.thirdPartyLoss[0].nextOfKin is required'],
      [standardClaim(policy, { thirdPartyLoss: [{ ...propertyLoss, claimantName: undefined }] }), 'body.thirdPartyLoss[0].claimantName is required'],
      [standardClaim(policy, { thirdPartyLoss: [{ ...propertyLoss, type: 'THEFT' }] }), 'body.thirdPartyLoss[0].type must be one of the allowed values'],
      [standardClaim(policy, { thirdPartyLoss: [{ ...propertyLoss, vehicleMake: 'Kia' }] }), "body.thirdPartyLoss[0] has an unknown property 'vehicleMake'"],
    ];
    for (const [body, message] of cases) await expectError(await create(JSON.parse(JSON.stringify(body))), 400, message, 'VALIDATION_ERROR');
  });

  it('keeps dates to the cover and to the past: loss inside cover and not in the future, notified on or after it and not later than today', async () => {
    const policy = await activePolicy();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dateOfLoss: day(1), dateOfNotification: day(1) }, `body.dateOfLoss must not be in the future (today is ${day(0)})`],
      [{ dateOfLoss: day(-31), dateOfNotification: day(-1) }, `body.dateOfLoss must be within the policy's cover (${policy.startDate} to ${policy.endDate})`],
      [{ dateOfLoss: day(-2), dateOfNotification: day(-3) }, 'body.dateOfNotification must not be before body.dateOfLoss'],
      [{ dateOfLoss: day(-2), dateOfNotification: day(1) }, `body.dateOfNotification must not be in the future (today is ${day(0)})`],
    ];
    for (const [dates, message] of cases) await expectError(await create(standardClaim(policy, dates)), 400, message, 'VALIDATION_ERROR');
    await created(standardClaim(policy, { dateOfLoss: policy.startDate, dateOfNotification: day(0) }));
  });

  it('names only assets of that policy, each once (400 naming the asset)', async () => {
    const policy = await activePolicy();
    const other = await activePolicy();
    await expectError(await create(standardClaim(policy, { assets: [policy.assetIds[0], other.assetIds[0]] })), 400,
      `body.assets[1]: ${other.assetIds[0]} is not an asset of policy ${policy.policyNo}`);
    await expectError(await create(standardClaim(policy, { assets: [policy.assetIds[0], policy.assetIds[0].toUpperCase()] })), 400,
      `body.assets[1] names asset ${policy.assetIds[0].toUpperCase()} a second time`);
  });

  it("takes only the client's own documents (404), each once (400)", async () => {
    const policy = await activePolicy();
    const theirs = await uploadPdf(otherToken);
    const mine = await uploadPdf();
    await expectError(await create(standardClaim(policy, { documentIds: [theirs] })), 404, `body.documentIds[0]: document ${theirs} not found`, 'NOT_FOUND');
    await expectError(await create(standardClaim(policy, { documentIds: [mine, mine] })), 400, `body.documentIds[1] names document ${mine} a second time`);
  });

  it("answers 404 for another client's or tenant's policy, or an unknown one, and writes nothing", async () => {
    const policy = await activePolicy();
    const before = await counts();
    for (const as of [otherToken, otherTenant]) await expectError(await create(standardClaim(policy), as), 404, 'Policy not found', 'NOT_FOUND');
    await expectError(await create(standardClaim({ ...policy, id: '00000000-0000-4000-8000-000000000000' })), 404, 'Policy not found');
    expect(await counts()).toEqual(before);
  });

  it('takes claims on ACTIVE policies, and on EXPIRED or COMPLETE ones for a loss while in cover; 409 POLICY_NOT_CLAIMABLE otherwise', async () => {
    for (const state of ['DRAFT', 'PROCESSING', 'AWAITING_DEBIT', 'INACTIVE', 'UNDER_WRITER', 'ACCOUNT_RECEIVABLE', 'CREDIT_CONTROL',
      'CANCELLED', 'DECLINED', 'ARCHIVED'] as const) {
      const policy = await policyIn(state);
      await expectError(await create(standardClaim(policy)), 409,
        `Policy ${policy.policyNo} is ${state}; claims are taken on ACTIVE policies, or EXPIRED and COMPLETE ones for a loss while in cover`,
        'POLICY_NOT_CLAIMABLE');
    }
    for (const state of ['EXPIRED', 'COMPLETE'] as const) {
      const ended = await policyIn(state);
      // Cover ran from 400 to 36 days ago.
      const [startDate, endDate] = [day(-400), day(-36)];
      await h.db.updateTable('policies').set({ start_date: startDate, end_date: endDate }).where('id', '=', ended.id).execute();
      await created(standardClaim(ended, { dateOfLoss: day(-40), dateOfNotification: day(0) }));
      await expectError(await create(standardClaim(ended, { dateOfLoss: day(-20) })), 400,
        `body.dateOfLoss must be within the policy's cover (${startDate} to ${endDate})`);
    }
  });

  it('writes nothing when a late check fails: no claim, child rows, notification or claim number', async () => {
    const policy = await activePolicy();
    const theirs = await uploadPdf(otherToken);
    const before = await counts();
    await expectError(await create(standardClaim(policy, { thirdPartyLoss: [vehicleLoss], documentIds: [theirs] })), 404, /^body\.documentIds\[0\]/);
    await expectError(await create(standardClaim(policy, { assets: ['7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'] })), 400, /^body\.assets\[0\]/);
    expect(await counts()).toEqual(before);
  });
});

/** Rows a claim writes, and the tenant's last claim number. */
async function counts() {
  const count = async (table: 'claims' | 'claim_assets' | 'claim_third_party_losses' | 'claim_documents' | 'claim_state_changes' | 'notifications') =>
    Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const sequence = await h.db.selectFrom('tenant_sequences').select('last_value').where('tenant_id', '=', h.tenantId).where('name', '=', 'CLM').executeTakeFirst();
  return {
    claims: await count('claims'), assets: await count('claim_assets'), losses: await count('claim_third_party_losses'),
    documents: await count('claim_documents'), changes: await count('claim_state_changes'), notifications: await count('notifications'),
    lastClaimNo: sequence?.last_value ?? null,
  };
}

describe('getClaim: GET /client/claims/{id}', () => {
  it("answers 404 for another client's or tenant's claim and for an unknown id, 400 for a malformed one", async () => {
    const claim = await created(standardClaim(await activePolicy()));
    expect((await get(claim.id)).statusCode).toBe(200);
    for (const as of [otherToken, otherTenant]) await expectError(await get(claim.id, as), 404, 'Claim not found', 'NOT_FOUND');
    await expectError(await get('00000000-0000-4000-8000-000000000000'), 404, 'Claim not found');
    await expectError(await get('CLM-0001'), 400, 'params.id must match format "uuid"');
  });

  it("shows staff's reviews and settlements with their documents, and every recorded change of status and stage", async () => {
    const claim = await created(standardClaim(await activePolicy()));
    const documentId = await uploadPdf();
    const { id: staffId, email } = sandboxStaff('head.claims');
    const scope = new TenantScope(h.db, h.tenantId);
    // What the staff API writes: a review, a settlement, and the stage moves they bring.
    await scope.insertInto('claim_reviews', { claim_id: claim.id, inspection_notes: 'Ceiling and floor damaged', general_notes: null,
      adjusted_settlement_amount: '4200.10', created_by_staff_id: staffId, document_ids: JSON.stringify([documentId]) }).execute();
    await scope.insertInto('claim_settlements', { claim_id: claim.id, amount: '4200.10', penalty_applicable: 'FEE', recipient: 'Kofi Mensah',
      payment_date: day(0), payment_method: 'MOBILE_MONEY', payment_method_info: 'MTN MoMo 0244123456', created_by_staff_id: staffId }).execute();
    await scope.insertInto('claim_state_changes', { claim_id: claim.id, field: 'stage', from_state: 'REVIEW', to_state: 'SETTLEMENT',
      actor_kind: 'staff', actor_id: staffId, notes: 'Assessed', created_at: new Date(Date.parse(claim.createdAt) + 1000) }).execute();
    const shown = (await get(claim.id)).json().data;
    expect(shown.reviews).toEqual([{ id: expect.any(String), inspectionNotes: 'Ceiling and floor damaged', generalNotes: null,
      adjustedSettlementAmount: 4200.1, createdBy: staffId, createdByStaff: { name: 'staff', id: staffId, fullName: expect.any(String), email }, documents: [expect.objectContaining({ id: documentId })], createdAt: expect.any(String) }]);
    expect(shown.settlements).toEqual([{ id: expect.any(String), amount: 4200.1, penaltyApplicable: 'FEE', penaltyValue: null, contributionApplicable: false,
      contributionAmount: null, recipient: 'Kofi Mensah', paymentDate: day(0), paymentMethod: 'MOBILE_MONEY', paymentMethodInfo: 'MTN MoMo 0244123456',
      createdBy: staffId, createdByStaff: expect.objectContaining({ id: staffId, email }),
      documents: [], createdAt: expect.any(String) }]);
    expect(shown.meta.stageHistory.map((c: { from: string | null; to: string; staff: string | null }) => [c.from, c.to, c.staff]))
      .toEqual([[null, 'REVIEW', null], ['REVIEW', 'SETTLEMENT', staffId]]);
  });
});

describe('listClaims: GET /client/claims', () => {
  it('pages the client\'s claims newest first, filters them, and adds documents only with include=documents', async () => {
    const fresh = (await signUp(h, individualBody())).token;
    const [first, second] = [await activePolicy(fresh), await activePolicy(fresh)];
    const documentId = await uploadPdf(fresh);
    const made = [];
    for (const [policy, extra] of [[first, { documentIds: [documentId] }], [second, {}], [first, {}]] as const) {
      made.push(await created(standardClaim(policy, extra), fresh));
      h.clock.advance(1000);
    }
    await h.db.updateTable('claims').set({ stage: 'SETTLEMENT' }).where('id', '=', made[1].id).execute();
    const ids = (res: { json: () => any }) => res.json().data.map((c: { id: string }) => c.id);

    const page1 = await list('?limit=2', fresh);
    expect(page1.statusCode).toBe(200);
    expect(ids(page1)).toEqual([made[2].id, made[1].id]);
    expect(page1.json().paginator).toMatchObject({ itemsCount: 3, page: 1, limit: 2, pageCount: 2, hasNextPage: true, nextPage: 2 });
    expect(ids(await list('?limit=2&page=2', fresh))).toEqual([made[0].id]);
    expect(page1.json().data[0].documents).toBeUndefined();

    const withDocuments = (await list('?include=documents', fresh)).json().data;
    expect(withDocuments.map((c: { documents: Array<{ id: string }> }) => c.documents.map((d) => d.id))).toEqual([[], [], [documentId]]);
    expect(ids(await list(`?policyId=${first.id}`, fresh))).toEqual([made[2].id, made[0].id]);
    expect(ids(await list('?stage=SETTLEMENT', fresh))).toEqual([made[1].id]);
    expect(ids(await list('?status=CLOSED', fresh))).toEqual([]);
    expect(ids(await list(`?status=ACTIVE&stage=REVIEW&policyId=${first.id}`, fresh))).toEqual([made[2].id, made[0].id]);
    await expectError(await list('?stage=DONE', fresh), 400, 'query.stage must be one of: REVIEW, SETTLEMENT, REPUDIATION, REJECTED, SETTLED');
    await expectError(await list('?limit=0', fresh), 400, /limit must be >= 1/);
  });

  it('shows no claim of another client or tenant, even when asked for by clientId', async () => {
    const claim = await created(standardClaim(await activePolicy()));
    expect((await list('')).json().data.map((c: { id: string }) => c.id)).toContain(claim.id);
    expect((await list(`?clientId=${clientId}`)).json().data.map((c: { id: string }) => c.id)).toContain(claim.id);
    for (const as of [otherToken, otherTenant]) {
      const res = await list(`?clientId=${clientId}`, as);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: [], paginator: { itemsCount: 0 } });
    }
  });
});

describe('deleteClaim: DELETE /client/claims/{id}', () => {
  it('withdraws a claim nobody has started on, with its links, leaving the documents', async () => {
    const documentId = await uploadPdf();
    const claim = await created(standardClaim(await activePolicy(), { thirdPartyLoss: [vehicleLoss], documentIds: [documentId] }));
    const res = await withdraw(claim.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: `Claim ${claim.claimNo} withdrawn` });
    await expectError(await get(claim.id), 404, 'Claim not found');
    for (const table of ['claim_assets', 'claim_third_party_losses', 'claim_documents', 'claim_state_changes'] as const) {
      expect(await h.db.selectFrom(table).select('claim_id').where('claim_id', '=', claim.id).execute()).toEqual([]);
    }
    expect((await h.call({ method: 'GET', url: `/api/v1/client/documents/${documentId}`, token })).statusCode).toBe(200);
    await expectError(await withdraw(claim.id), 404, 'Claim not found');
  });

  it("answers 404 for another client's or tenant's claim and deletes nothing", async () => {
    const claim = await created(standardClaim(await activePolicy()));
    for (const as of [otherToken, otherTenant]) await expectError(await withdraw(claim.id, as), 404, 'Claim not found', 'NOT_FOUND');
    expect((await get(claim.id)).statusCode).toBe(200);
  });

  it('refuses (409 CLAIM_IN_PROGRESS) once staff have started: past REVIEW, CLOSED, or with a review or settlement', async () => {
    const policy = await activePolicy();
    const scope = new TenantScope(h.db, h.tenantId);
    const staffId = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
    const rule = 'a claim can be withdrawn only while ACTIVE in REVIEW with no review or settlement';
    const started: Array<[string, (id: string) => Promise<unknown>]> = [
      ['is ACTIVE in SETTLEMENT', (id) => h.db.updateTable('claims').set({ stage: 'SETTLEMENT' }).where('id', '=', id).execute()],
      ['is CLOSED in REVIEW', (id) => h.db.updateTable('claims').set({ status: 'CLOSED' }).where('id', '=', id).execute()],
      ['has a review', (id) => scope.insertInto('claim_reviews', { claim_id: id, inspection_notes: 'Seen', general_notes: null,
        adjusted_settlement_amount: null, created_by_staff_id: staffId, document_ids: '[]' }).execute()],
      ['has a settlement', (id) => scope.insertInto('claim_settlements', { claim_id: id, amount: 10, penalty_applicable: null, recipient: 'Kofi',
        payment_date: day(0), payment_method: 'CASH', payment_method_info: 'Paid at the branch', created_by_staff_id: staffId, document_ids: '[]' }).execute()],
    ];
    for (const [what, start] of started) {
      const claim = await created(standardClaim(policy));
      await start(claim.id);
      await expectError(await withdraw(claim.id), 409, `Claim ${claim.claimNo} ${what}; ${rule}`, 'CLAIM_IN_PROGRESS');
      expect((await get(claim.id)).statusCode).toBe(200);
    }
  });
});
