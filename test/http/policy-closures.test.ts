import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PolicyState } from '../../server/platform/db/schema.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { auth, type Caller, castOfClients, individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';
import { file, multipart, PDF } from '../helpers/multipart.js';

let h: Harness;
let dataDir: string;
let token: string;
let clientId: string;
let otherToken: string;
let otherTenant: Caller;
let productId: string;
const today = plusDays(0);
const start = plusDays(10);
const end = plusDays(374);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-closures-'));
  h = await createHarness({ dataDir });
  ({ token, clientId, otherToken, otherTenant } = await castOfClients(h));
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const base = '/api/v1/client/policies/closure';

/** A home policy of the client's, put in `state` the way payments and staff will (they come later). */
async function policyIn(state: PolicyState, as = token): Promise<{ id: string; policyNo: string }> {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token: as, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: start, endDate: end, productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  if (state !== 'PROCESSING') await h.db.updateTable('policies').set({ state }).where('id', '=', policy.id).execute();
  return policy;
}

const request = (body: Record<string, unknown>, as: Caller = token) => h.call({ method: 'POST', url: base, ...auth(as), payload: body });
const get = (id: string, as: Caller = token) => h.call({ method: 'GET', url: `${base}/${id}`, ...auth(as) });
const put = (id: string, body: Record<string, unknown>, as: Caller = token) => h.call({ method: 'PUT', url: `${base}/${id}`, ...auth(as), payload: body });
const withdraw = (id: string, as: Caller = token) => h.call({ method: 'DELETE', url: `${base}/${id}`, ...auth(as) });
const list = (query = '', as: Caller = token) => h.call({ method: 'GET', url: `${base}/all${query}`, ...auth(as) });
const reason = 'Vehicle sold to a new owner who insures it under their own name';
const review = (id: string, status: 'APPROVED' | 'REJECTED') =>
  h.db.updateTable('policy_closures').set({ status, reviewed_at: new Date(), review_notes: 'Checked the sale letter' }).where('id', '=', id).execute();

async function uploadPdf(as = token): Promise<string> {
  const { payload, headers } = multipart([file('sale-letter.pdf', PDF, 'application/pdf')]);
  const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token: as });
  expect(res.statusCode).toBe(201);
  return res.json().data[0].id;
}

describe('requestPolicyClosure: POST /client/policies/closure', () => {
  it('records a request PENDING_REVIEW, from today by default, and tells the client', async () => {
    const policy = await policyIn('ACTIVE');
    const res = await request({ policyId: policy.id, reason });
    expect(res.statusCode).toBe(201);
    const closure = res.json().data;
    expect(closure).toMatchObject({
      status: 'PENDING_REVIEW', reason, effectiveDate: today, notes: null, documentIds: [], reviewedAt: null, reviewNotes: null,
      policy: { id: policy.id, policyNo: policy.policyNo, policyType: 'HOME', state: 'ACTIVE', startDate: start, endDate: end },
    });
    const note = await h.db.selectFrom('notifications').select(['title', 'entity']).where('client_id', '=', clientId)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(note).toMatchObject({ title: `Closure of policy ${policy.policyNo} requested`, entity: { name: 'policyClosure', id: closure.id } });
    // The policy itself does not change until staff approve.
    const after = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${policy.id}`, token })).json().data;
    expect(after.state).toBe('ACTIVE');
  });

  it('keeps the date, notes and the client\'s own supporting documents', async () => {
    const policy = await policyIn('ACTIVE');
    const documentId = await uploadPdf();
    const res = await request({ policyId: policy.id, reason, effectiveDate: plusDays(20), notes: 'Sale letter attached.', documentIds: [documentId] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ effectiveDate: plusDays(20), notes: 'Sale letter attached.', documentIds: [documentId] });
  });

  it('allows one request under review per policy (409), even when several arrive at once', async () => {
    const policy = await policyIn('ACTIVE');
    expect((await request({ policyId: policy.id, reason })).statusCode).toBe(201);
    const again = await request({ policyId: policy.id, reason });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CLOSURE_PENDING', message: `Policy ${policy.policyNo} already has a closure request under review; change that one instead` });

    const racing = await policyIn('INACTIVE');
    const answers = await Promise.all(Array.from({ length: 6 }, () => request({ policyId: racing.id, reason })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await h.db.selectFrom('policy_closures').select('id').where('policy_id', '=', racing.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('closes only policies staff could still cancel (409 NOT_CLOSABLE otherwise)', async () => {
    for (const state of ['EXPIRED', 'CANCELLED', 'COMPLETE', 'DECLINED', 'UNDER_WRITER', 'ARCHIVED'] as const) {
      const policy = await policyIn(state);
      const res = await request({ policyId: policy.id, reason });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'NOT_CLOSABLE', message: `Policy ${policy.policyNo} is ${state} and cannot be closed` });
    }
    for (const state of ['DRAFT', 'PROCESSING', 'AWAITING_DEBIT', 'ACCOUNT_RECEIVABLE', 'CREDIT_CONTROL'] as const) {
      expect((await request({ policyId: (await policyIn(state)).id, reason })).statusCode).toBe(201);
    }
  });

  it('answers 404 for a policy that is not the client\'s own, and writes nothing', async () => {
    const mine = await policyIn('ACTIVE');
    const before = await h.db.selectFrom('policy_closures').select('id').execute();
    expect((await request({ policyId: mine.id, reason }, otherToken)).statusCode).toBe(404);
    expect((await request({ policyId: mine.id, reason }, otherTenant)).statusCode).toBe(404);
    const unknown = await request({ policyId: '3f6c2a1e-8b4d-4c7e-9a2f-1b3c5d7e9f01', reason });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Policy not found');
    expect(await h.db.selectFrom('policy_closures').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses bad fields with a 400 naming them', async () => {
    const policy = await policyIn('ACTIVE');
    const message = async (body: Record<string, unknown>) => {
      const res = await request({ policyId: policy.id, reason, ...body });
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    expect(await message({ reason: 'sold' })).toBe('body.reason must NOT have fewer than 5 characters');
    expect(await message({ effectiveDate: plusDays(-1) })).toBe(`body.effectiveDate must not be in the past (today is ${today})`);
    expect(await message({ effectiveDate: plusDays(400) })).toBe(`body.effectiveDate must not be after the policy's endDate (${end})`);
    expect(await message({ effectiveDate: '01-12-2026' })).toBe('body.effectiveDate must match format "date"');
    expect(await message({ refund: true })).toBe("body has an unknown property 'refund'");
    expect(await message({ documentIds: Array.from({ length: 11 }, () => '9b2e4c1a-7d3f-4e8b-a5c6-1f2d3e4a5b6c') }))
      .toBe('body.documentIds must NOT have more than 10 items');
    const documentId = await uploadPdf();
    expect(await message({ documentIds: [documentId, documentId] })).toBe(`body.documentIds[1] names document ${documentId} a second time`);
    const missing = await request({ policyId: policy.id, reason: undefined });
    expect(missing.json().message).toBe('body.reason is required');
  });

  it('refuses another client\'s document with a 404 naming it', async () => {
    const policy = await policyIn('ACTIVE');
    const theirs = await uploadPdf(otherToken);
    const res = await request({ policyId: policy.id, reason, documentIds: [await uploadPdf(), theirs] });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`body.documentIds[1]: document ${theirs} not found`);
    expect(await h.db.selectFrom('policy_closures').select('id').where('policy_id', '=', policy.id).execute()).toHaveLength(0);
  });
});

describe('listPolicyClosures, getPolicyClosure: GET /client/policies/closure/all and /{id}', () => {
  let lister: string;
  const made: Array<{ id: string; policyId: string; policyNo: string }> = [];

  beforeAll(async () => {
    lister = (await signUp(h, individualBody())).token;
    for (let i = 0; i < 3; i += 1) {
      const policy = await policyIn('ACTIVE', lister);
      h.clock.advance(1000);
      const closure = (await request({ policyId: policy.id, reason: `Reason number ${i}` }, lister)).json().data;
      made.push({ id: closure.id, policyId: policy.id, policyNo: policy.policyNo });
    }
    await review(made[0].id, 'REJECTED');
  });

  it('lists the client\'s requests newest first, with paging', async () => {
    const res = await list('', lister);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { id: string }) => c.id)).toEqual([made[2].id, made[1].id, made[0].id]);
    const page = (await list('?limit=2&page=2', lister)).json();
    expect(page.data.map((c: { id: string }) => c.id)).toEqual([made[0].id]);
    expect(page.paginator).toMatchObject({ itemsCount: 3, limit: 2, pageCount: 2, page: 2, hasNextPage: false, prevPage: 1 });
  });

  it('filters by status, policyId, policyNo and id', async () => {
    const ids = async (query: string) => (await list(query, lister)).json().data.map((c: { id: string }) => c.id);
    expect(await ids('?status=REJECTED')).toEqual([made[0].id]);
    expect(await ids('?status=PENDING_REVIEW')).toEqual([made[2].id, made[1].id]);
    expect(await ids(`?policyId=${made[1].policyId}`)).toEqual([made[1].id]);
    expect(await ids(`?policyNo=${made[2].policyNo.slice(4).toLowerCase()}`)).toEqual([made[2].id]);
    expect(await ids(`?id=${made[1].id}`)).toEqual([made[1].id]);
    expect(await ids(`?id=${made[1].id}&status=REJECTED`)).toEqual([]);
    expect((await list('?status=CLOSED', lister)).statusCode).toBe(400);
  });

  it('shows a client only its own requests; anyone else\'s id is 404', async () => {
    const others = (await list('', otherToken)).json().data.map((c: { id: string }) => c.id);
    expect(others).not.toContain(made[1].id);
    expect((await list(`?id=${made[1].id}`, otherTenant)).json().data).toEqual([]);
    expect((await get(made[1].id, lister)).json().data).toMatchObject({ id: made[1].id, reason: 'Reason number 1' });
    expect((await get(made[1].id, otherToken)).statusCode).toBe(404);
    expect((await get(made[1].id, otherTenant)).statusCode).toBe(404);
    const rejected = (await get(made[0].id, lister)).json().data;
    expect(rejected).toMatchObject({ status: 'REJECTED', reviewNotes: 'Checked the sale letter', reviewedAt: expect.any(String) });
  });
});

describe('updatePolicyClosure, deletePolicyClosure: PUT and DELETE /client/policies/closure/{id}', () => {
  it('replaces a pending request: left-out notes and documents clear', async () => {
    const policy = await policyIn('ACTIVE');
    const documentId = await uploadPdf();
    const made = (await request({ policyId: policy.id, reason, notes: 'First note', documentIds: [documentId] })).json().data;
    h.clock.advance(1000);
    const res = await put(made.id, { reason: 'Moving abroad for work next month', effectiveDate: plusDays(30) });
    expect(res.statusCode).toBe(200);
    const updated = res.json().data;
    expect(updated).toMatchObject({ id: made.id, status: 'PENDING_REVIEW', reason: 'Moving abroad for work next month', effectiveDate: plusDays(30),
      notes: null, documentIds: [], policy: { id: policy.id } });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(made.updatedAt));
    expect((await get(made.id)).json().data).toEqual(updated);
  });

  it('applies the request\'s rules again', async () => {
    const policy = await policyIn('ACTIVE');
    const made = (await request({ policyId: policy.id, reason })).json().data;
    const message = async (body: Record<string, unknown>, status = 400) => {
      const res = await put(made.id, body);
      expect(res.statusCode).toBe(status);
      return res.json().message as string;
    };
    expect(await message({ reason })).toBe('body.effectiveDate is required');
    expect(await message({ reason, effectiveDate: plusDays(-2) })).toBe(`body.effectiveDate must not be in the past (today is ${today})`);
    expect(await message({ reason, effectiveDate: today, policyId: policy.id })).toBe("body has an unknown property 'policyId'");
    const theirs = await uploadPdf(otherToken);
    expect(await message({ reason, effectiveDate: today, documentIds: [theirs] }, 404)).toBe(`body.documentIds[0]: document ${theirs} not found`);
    expect((await get(made.id)).json().data).toMatchObject({ reason, effectiveDate: today, documentIds: [] });
  });

  it('withdraws a pending request, after which a new one may be made', async () => {
    const policy = await policyIn('ACTIVE');
    const made = (await request({ policyId: policy.id, reason })).json().data;
    const res = await withdraw(made.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`Closure request for policy ${policy.policyNo} withdrawn`);
    expect((await get(made.id)).statusCode).toBe(404);
    expect((await withdraw(made.id)).statusCode).toBe(404);
    expect((await request({ policyId: policy.id, reason })).statusCode).toBe(201);
  });

  it('keeps a reviewed request as it is (409 on PUT and DELETE), and a reviewed one does not block a new request', async () => {
    for (const status of ['APPROVED', 'REJECTED'] as const) {
      const policy = await policyIn('ACTIVE');
      const made = (await request({ policyId: policy.id, reason })).json().data;
      await review(made.id, status);
      const changed = await put(made.id, { reason: 'Changed my mind about this', effectiveDate: today });
      expect(changed.statusCode).toBe(409);
      expect(changed.json()).toMatchObject({ code: 'CLOSURE_REVIEWED',
        message: `The closure request for policy ${policy.policyNo} is ${status}; only a request PENDING_REVIEW can be changed or withdrawn` });
      expect((await withdraw(made.id)).statusCode).toBe(409);
      expect((await get(made.id)).json().data).toMatchObject({ status, reason });
      if (status === 'REJECTED') expect((await request({ policyId: policy.id, reason })).statusCode).toBe(201);
    }
  });

  it('answers 404 to another client or tenant, and changes nothing', async () => {
    const policy = await policyIn('ACTIVE');
    const made = (await request({ policyId: policy.id, reason })).json().data;
    for (const as of [otherToken, otherTenant]) {
      expect((await put(made.id, { reason: 'Not my policy at all', effectiveDate: today }, as)).statusCode).toBe(404);
      expect((await withdraw(made.id, as)).statusCode).toBe(404);
    }
    expect((await get(made.id)).json().data).toMatchObject({ reason, status: 'PENDING_REVIEW' });
  });

  it('goes with its policy when an unpaid policy is deleted', async () => {
    const policy = await policyIn('PROCESSING');
    const made = (await request({ policyId: policy.id, reason })).json().data;
    expect((await h.call({ method: 'DELETE', url: `/api/v1/client/policies/${policy.id}`, token })).statusCode).toBe(200);
    expect((await get(made.id)).statusCode).toBe(404);
  });
});
