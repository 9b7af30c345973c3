import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, plusDays, signUp } from '../helpers/clients.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * Staff selling to clients: quotes, policies and renewals for clients within reach, OFFLINE
 * products, the staff member credited, the premium within a latitude, and the staff policy list.
 */

let h: Harness;
type Session = Awaited<ReturnType<typeof staffSession>>;
let agent: Session;
let officer: Session;
let headSales: Session;
let branchManager: Session;
let exec: Session;
let agentsClient: { id: string; token: string };
let walkIn: { id: string; token: string };
let claimsClient: { id: string; token: string };
let onlineAuto: string;
let offlineAuto: string;
const year = new Date().getUTCFullYear();
const start = plusDays(10);
const end = new Date(Date.parse(start) + 364 * 86_400_000).toISOString().slice(0, 10);
const RATED = 3722.5;

/** A client who signed up, then recorded as brought in by `originator` (what staff client creation sets). */
async function clientOf(originator: string | null) {
  const signed = await signUp(h, individualBody());
  await h.db.updateTable('clients').set({ originating_staff_id: originator }).where('id', '=', signed.account.id).execute();
  return { id: signed.account.id as string, token: signed.token };
}

beforeAll(async () => {
  h = await createHarness();
  [agent, officer, headSales, branchManager, exec] = await Promise.all(
    ['agent', 'officer', 'head.sales', 'branch.manager', 'exec'].map((handle) => staffSession(h, handle)));
  agentsClient = await clientOf(agent.id);
  walkIn = await clientOf(null);
  claimsClient = await clientOf(sandboxStaff('head.claims').id);
  const autos = await h.db.selectFrom('products').select(['id', 'distribution']).where('category', '=', 'AUTO').execute();
  onlineAuto = autos.find((p) => p.distribution === 'ONLINE')!.id;
  offlineAuto = autos.find((p) => p.distribution === 'OFFLINE')!.id;
});
afterAll(async () => { await h.close(); });

const car = {
  coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Corolla', registrationNo: 'GR 1234-24',
  chassisNumber: 'JTDBR32E720123456', cubicCapacity: 1800, seats: 5, bodyType: 'SALOON', usage: 'PRIVATE', sumInsured: 85000,
  noClaimDiscountYears: 2, policyExcess: 10, yearOfMake: year - 7,
};
const autoBody = (extra: Record<string, unknown> = {}) => ({
  policyType: 'AUTO', currency: 'GHS', startDate: start, endDate: end, productId: offlineAuto, businessType: 'NEW_BUSINESS',
  assets: [car, { ...car, registrationNo: 'GR 5678-24', sumInsured: 40000 }], ...extra,
});
const sell = (as: Session, clientId: string, body: object) =>
  h.call({ method: 'POST', url: `/api/v1/staff/clients/${clientId}/policies`, token: as.token, payload: body });
const quote = (as: Session, clientId: string, body: object) =>
  h.call({ method: 'POST', url: `/api/v1/staff/clients/${clientId}/quotes`, token: as.token, payload: body });
const list = (as: Session, query = '') => h.call({ method: 'GET', url: `/api/v1/staff/policies${query}`, token: as.token });

describe('createPolicyForClient: POST /staff/clients/{id}/policies', () => {
  let sold: { id: string; premium: number; policyNo: string };

  it('lets an agent sell its own client an OFFLINE product, credited to the agent and shown to the client', async () => {
    const res = await sell(agent, agentsClient.id, autoBody());
    expect(res.statusCode).toBe(201);
    sold = res.json().data;
    const { firstName, lastName, email } = sandboxStaff('agent');
    expect(res.json().data).toMatchObject({
      state: 'PROCESSING', client: { id: agentsClient.id }, product: { id: offlineAuto },
      createdBy: { name: 'staff', id: agent.id, fullName: `${firstName} ${lastName}`, email },
      originatingStaff: { name: 'staff', id: agent.id, fullName: `${firstName} ${lastName}` },
      invoice: { amount: sold.premium },
    });
    expect(res.json().data.premiumBreakdown.ratedPremium).toBeUndefined();
    const history = await h.db.selectFrom('policy_state_changes').selectAll().where('policy_id', '=', sold.id).execute();
    expect(history).toMatchObject([{ from_state: null, to_state: 'PROCESSING', actor_kind: 'staff', actor_id: agent.id }]);

    // The client sees it in its own app, with who sold it, and was told.
    const seen = await h.call({ method: 'GET', url: `/api/v1/client/policies/${sold.id}`, token: agentsClient.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.originatingStaff).toMatchObject({ id: agent.id, fullName: `${firstName} ${lastName}` });
    const notes = await h.db.selectFrom('notifications').select('title').where('client_id', '=', agentsClient.id).execute();
    expect(notes.map((n) => n.title)).toContain(`Policy ${sold.policyNo} created`);
    // And finds it by the seller's name, part of it, any case.
    const byName = await h.call({ method: 'GET', url: `/api/v1/client/policies?staffName=${lastName.slice(1, 4).toUpperCase()}`, token: agentsClient.token });
    expect(byName.json().data.map((p: { id: string }) => p.id)).toEqual([sold.id]);
  });

  it('keeps OFFLINE products from clients: the same body from the client is refused', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: agentsClient.token, payload: autoBody() });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.productId: no ACTIVE ONLINE product/);
  });

  it('refuses a DEACTIVATED product to staff too', async () => {
    await h.db.updateTable('products').set({ status: 'DEACTIVATED' }).where('id', '=', offlineAuto).execute();
    try {
      const res = await sell(exec, agentsClient.id, autoBody());
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('PRODUCT_DEACTIVATED');
    } finally {
      await h.db.updateTable('products').set({ status: 'ACTIVE' }).where('id', '=', offlineAuto).execute();
    }
  });

  it('answers 404 for a client outside the caller\'s reach, as for another company\'s', async () => {
    // An agent's reach is the clients it brought in: not a walk-in client, not a colleague's.
    for (const clientId of [walkIn.id, claimsClient.id]) {
      const res = await sell(agent, clientId, autoBody());
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Client not found', code: 'NOT_FOUND' });
    }
    // A level officer's is its department's clients and the walk-ins, not another department's.
    expect((await sell(officer, claimsClient.id, autoBody())).statusCode).toBe(404);
    expect((await sell(officer, walkIn.id, autoBody({ generateInvoice: false }))).statusCode).toBe(201);
    // A branch manager's is the branch's: the claims department's client too.
    expect((await sell(branchManager, claimsClient.id, autoBody({ generateInvoice: false }))).statusCode).toBe(201);
    // Another company's client, to its executive manager.
    const foreign = await signUp(h, individualBody(), h.otherApiKey);
    expect((await sell(exec, foreign.account.id, autoBody())).statusCode).toBe(404);
    expect((await sell(exec, '00000000-0000-4000-8000-000000000000', autoBody())).statusCode).toBe(404);
  });

  it('refuses a deactivated client with 409 CLIENT_INACTIVE', async () => {
    const client = await clientOf(agent.id);
    await h.db.updateTable('clients').set({ is_active: false }).where('id', '=', client.id).execute();
    const res = await sell(agent, client.id, autoBody());
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CLIENT_INACTIVE');
  });

  it('credits the staff member named within reach, and no one outside it', async () => {
    const credited = await sell(officer, walkIn.id, autoBody({ originatingStaffId: agent.id, generateInvoice: false }));
    expect(credited.statusCode).toBe(201);
    expect(credited.json().data).toMatchObject({ createdBy: { id: officer.id }, originatingStaff: { id: agent.id } });
    // The claims department is outside a retail officer's reach; an agent can credit only itself.
    const outside = await sell(officer, walkIn.id, autoBody({ originatingStaffId: sandboxStaff('head.claims').id }));
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toMatch(/^body\.originatingStaffId/);
    expect((await sell(agent, agentsClient.id, autoBody({ originatingStaffId: officer.id }))).json()).toMatchObject({ statusCode: 403, code: 'NOT_PERMITTED' });
    // The executive manager may credit anyone in the company.
    const byExec = await sell(exec, claimsClient.id, autoBody({ originatingStaffId: sandboxStaff('head.claims').id, generateInvoice: false }));
    expect(byExec.json().data.originatingStaff.id).toBe(sandboxStaff('head.claims').id);
  });

  it('lets staff set the premium within their latitude only', async () => {
    const rated = (await quote(exec, walkIn.id, autoBody())).json().data.premium as number;
    expect(rated).toBeGreaterThan(RATED); // two cars
    // A level officer and an agent have none: the rated price only, like a client.
    const none = await sell(officer, walkIn.id, autoBody({ premium: rated - 1 }));
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'PREMIUM_MISMATCH', message: expect.stringContaining(rated.toFixed(2)) });
    expect((await sell(officer, walkIn.id, autoBody({ premium: rated, generateInvoice: false }))).statusCode).toBe(201);
    // A head of department: 10% either way.
    const discounted = Number((rated * 0.92).toFixed(2));
    const res = await sell(headSales, walkIn.id, autoBody({ premium: discounted }));
    expect(res.statusCode).toBe(201);
    const policy = res.json().data;
    expect(policy.premium).toBe(discounted);
    expect(policy.invoice.amount).toBe(discounted);
    expect(policy.premiumBreakdown).toMatchObject({ premium: discounted, ratedPremium: rated });
    const shares = policy.assets.reduce((sum: number, a: { premium: number }) => sum + Math.round(a.premium * 100), 0);
    expect(shares).toBe(Math.round(discounted * 100));
    const beyond = await sell(headSales, walkIn.id, autoBody({ premium: Number((rated * 0.85).toFixed(2)) }));
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json()).toMatchObject({ code: 'PREMIUM_OUT_OF_LATITUDE', message: expect.stringMatching(/^body\.premium must be between .* 10% either way/) });
    expect((await sell(headSales, walkIn.id, autoBody({ premium: Number((rated * 1.11).toFixed(2)) }))).statusCode).toBe(422);
    // The executive manager: 25%.
    expect((await sell(exec, walkIn.id, autoBody({ premium: Number((rated * 0.8).toFixed(2)), generateInvoice: false }))).statusCode).toBe(201);
    // Cents only.
    expect((await sell(exec, walkIn.id, autoBody({ premium: 4000.123 }))).statusCode).toBe(400);
  });

  it('records an existing policy under its own number, once', async () => {
    const res = await sell(exec, walkIn.id, autoBody({ policyNo: 'MTR/2025/0042', generateInvoice: false }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.policyNo).toBe('MTR/2025/0042');
    const again = await sell(exec, walkIn.id, autoBody({ policyNo: 'MTR/2025/0042' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'POLICY_NO_TAKEN', message: expect.stringMatching(/^body\.policyNo/) });
  });

  it('takes body.clientId only when it is the path\'s', async () => {
    const res = await sell(exec, walkIn.id, autoBody({ clientId: agentsClient.id }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body\.clientId/);
    expect((await sell(exec, walkIn.id, autoBody({ clientId: walkIn.id, generateInvoice: false }))).statusCode).toBe(201);
  });

  it('is for staff: a client token gets 403 WRONG_TOKEN_KIND, and a staff token cannot buy as a client', async () => {
    const res = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${agentsClient.id}/policies`, token: agentsClient.token, payload: autoBody() });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WRONG_TOKEN_KIND');
    const back = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: agent.token, payload: autoBody({ productId: onlineAuto }) });
    expect(back.statusCode).toBe(403);
    expect(back.json().code).toBe('WRONG_TOKEN_KIND');
  });

  it('is refused to a staff member of another company (its token is not good with this key)', async () => {
    const res = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${agentsClient.id}/policies`, token: exec.token, apiKey: h.otherApiKey, payload: autoBody() });
    expect(res.statusCode).toBe(401);
  });
});

describe('quotePolicyForClient: POST /staff/clients/{id}/quotes', () => {
  it('prices exactly as the sale would, writing nothing', async () => {
    const before = await h.db.selectFrom('policies').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await quote(headSales, agentsClient.id, autoBody());
    expect(res.statusCode).toBe(200);
    const priced = res.json().data;
    expect(priced).toMatchObject({ policyType: 'AUTO', product: { id: offlineAuto } });
    const after = await h.db.selectFrom('policies').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
    const soldAt = (await sell(headSales, agentsClient.id, autoBody({ generateInvoice: false }))).json().data.premium;
    expect(soldAt).toBe(priced.premium);
    // A premium within latitude is the quoted one, the rated one kept.
    const set = (await quote(headSales, agentsClient.id, autoBody({ premium: Number((priced.premium * 0.95).toFixed(2)) }))).json().data;
    expect(set.premiumBreakdown).toMatchObject({ premium: Number((priced.premium * 0.95).toFixed(2)), ratedPremium: priced.premium });
  });

  it('answers 404 for a client outside reach and 403 to a client token', async () => {
    expect((await quote(agent, walkIn.id, autoBody())).statusCode).toBe(404);
    const res = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${walkIn.id}/quotes`, token: walkIn.token, payload: autoBody() });
    expect(res.statusCode).toBe(403);
  });
});

describe('listStaffPolicies, getStaffPolicy: GET /staff/policies and /staff/policies/{id}', () => {
  it('lists the policies of the clients within reach, by client, by staff id and by staff name', async () => {
    const mine = (await list(agent, '?usePagination=false')).json().data as { client: { id: string } }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((p) => p.client.id))).toEqual(new Set([agentsClient.id]));

    const all = (await list(exec, '?usePagination=false')).json().data as { client: { id: string }; originatingStaff: { id: string } | null }[];
    expect(new Set(all.map((p) => p.client.id))).toEqual(new Set([agentsClient.id, walkIn.id, claimsClient.id]));
    // The officer's reach leaves out the claims department's client.
    const officers = (await list(officer, '?usePagination=false')).json().data as { client: { id: string } }[];
    expect(officers.some((p) => p.client.id === claimsClient.id)).toBe(false);
    expect(officers.some((p) => p.client.id === walkIn.id)).toBe(true);

    const byClient = (await list(exec, `?usePagination=false&clientId=${walkIn.id}`)).json().data as { client: { id: string } }[];
    expect(byClient.length).toBeGreaterThan(0);
    expect(byClient.every((p) => p.client.id === walkIn.id)).toBe(true);
    const byStaff = (await list(exec, `?usePagination=false&staffId=${agent.id}`)).json().data as { originatingStaff: { id: string } }[];
    expect(byStaff.length).toBe(all.filter((p) => p.originatingStaff?.id === agent.id).length);
    expect(byStaff.every((p) => p.originatingStaff.id === agent.id)).toBe(true);
    const byName = (await list(exec, `?usePagination=false&staffName=${encodeURIComponent(sandboxStaff('agent').firstName.toLowerCase())}`)).json().data;
    expect(byName.map((p: { id: string }) => p.id).sort()).toEqual(byStaff.map((p) => (p as unknown as { id: string }).id).sort());
    // Out of reach is no match, not an error.
    expect((await list(agent, `?clientId=${walkIn.id}`)).json().data).toEqual([]);

    // A page's queries are built once per reach and set of filters, the reach's subject and the
    // filters' values given to them: each caller's page is its own unpaged list, counted alike.
    const ids = (rows: { id: string }[]) => rows.map((p) => p.id);
    for (const caller of [agent, officer, exec]) {
      const unpaged = ids((await list(caller, '?usePagination=false')).json().data);
      const page = (await list(caller, '?limit=100')).json();
      expect(ids(page.data)).toEqual(unpaged.slice(0, 100));
      expect(page.paginator.itemsCount).toBe(unpaged.length);
    }
    for (const client of [walkIn, agentsClient, claimsClient]) {
      const page = (await list(exec, `?clientId=${client.id}`)).json();
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.every((p: { client: { id: string } }) => p.client.id === client.id)).toBe(true);
      expect(page.paginator.itemsCount).toBe(all.filter((p) => p.client.id === client.id).length);
    }
    expect((await list(agent, `?clientId=${agentsClient.id}`)).json().data.length).toBeGreaterThan(0);
  });

  it('gets a policy within reach, and 404 outside it', async () => {
    const policy = (await list(exec, `?clientId=${walkIn.id}&limit=1`)).json().data[0];
    const got = await h.call({ method: 'GET', url: `/api/v1/staff/policies/${policy.id}`, token: officer.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ id: policy.id, assets: expect.any(Array) });
    expect((await h.call({ method: 'GET', url: `/api/v1/staff/policies/${policy.id}`, token: agent.token })).statusCode).toBe(404);
    const foreignKey = await h.call({ method: 'GET', url: `/api/v1/staff/policies/${policy.id}`, token: walkIn.token });
    expect(foreignKey.statusCode).toBe(403);
  });
});

describe('renewStaffPolicy: POST /staff/policies/{id}/renew', () => {
  it('renews a running policy for its client, credited to the caller, once', async () => {
    const old = (await sell(agent, agentsClient.id, autoBody({ generateInvoice: false }))).json().data;
    await h.db.updateTable('policies').set({ state: 'ACTIVE' }).where('id', '=', old.id).execute();
    const renew = (as: Session) => h.call({ method: 'POST', url: `/api/v1/staff/policies/${old.id}/renew`, token: as.token, payload: {} });
    // The claims department's head does not serve the retail agent's clients.
    expect((await renew(await staffSession(h, 'head.claims'))).statusCode).toBe(404);
    const res = await renew(officer);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      businessType: 'RENEWAL', oldPolicyId: old.id, client: { id: agentsClient.id }, product: { id: offlineAuto },
      createdBy: { id: officer.id }, originatingStaff: { id: officer.id }, startDate: plusDays(375),
    });
    const again = await renew(exec);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_RENEWED');
  });
});

describe('payments and claims of the clients within reach', () => {
  let policy: { id: string; policyNo: string; premium: number; invoice: { id: string }; assets: { id: string }[] };
  let walkInPolicy: { id: string; invoice: { id: string } };
  const pay = (as: Session | string, body: object, key?: string) => h.call({
    method: 'POST', url: '/api/v1/staff/transactions', token: typeof as === 'string' ? as : as.token, payload: body,
    headers: key ? { 'idempotency-key': key } : {},
  });

  beforeAll(async () => {
    policy = (await sell(agent, agentsClient.id, autoBody())).json().data;
    walkInPolicy = (await sell(officer, walkIn.id, autoBody())).json().data;
  });

  it('takes a cash payment for the agent\'s client, recorded as the agent\'s, and the client sees it', async () => {
    const body = { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: 1000 };
    const res = await pay(agent, body, 'cash-at-branch-1');
    expect(res.statusCode).toBe(201);
    const payment = res.json().data;
    expect(payment).toMatchObject({ status: 'PENDING_APPROVAL', amount: 1000, invoice: { id: policy.invoice.id } });
    const history = await h.db.selectFrom('transaction_state_changes').selectAll().where('transaction_id', '=', payment.id).execute();
    expect(history).toMatchObject([{ to_state: 'PENDING_APPROVAL', actor_kind: 'staff', actor_id: agent.id }]);
    // A retry with the same key is the same payment.
    const replay = await pay(agent, body, 'cash-at-branch-1');
    expect(replay.json().data.id).toBe(payment.id);
    const seen = await h.call({ method: 'GET', url: `/api/v1/client/transactions?invoiceId=${policy.invoice.id}`, token: agentsClient.token });
    expect(seen.json().data.map((t: { id: string }) => t.id)).toEqual([payment.id]);
  });

  it('answers 404 for an invoice of a client outside reach, and 403 to a client token', async () => {
    const res = await pay(agent, { invoiceId: walkInPolicy.invoice.id, paymentMethod: 'CASH', amount: 10 });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Invoice not found');
    expect((await pay(agentsClient.token, { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: 10 })).statusCode).toBe(403);
  });

  it('lists invoices and payments within reach, by client and by the staff member credited', async () => {
    const invoices = (as: Session, query = '') => h.call({ method: 'GET', url: `/api/v1/staff/invoices?usePagination=false${query}`, token: as.token });
    const payments = (as: Session, query = '') => h.call({ method: 'GET', url: `/api/v1/staff/transactions?usePagination=false${query}`, token: as.token });
    const agentsInvoices = (await invoices(agent)).json().data as { id: string }[];
    expect(agentsInvoices.map((i) => i.id)).toContain(policy.invoice.id);
    expect(agentsInvoices.map((i) => i.id)).not.toContain(walkInPolicy.invoice.id);
    const all = (await invoices(exec)).json().data as { id: string }[];
    expect(all.map((i) => i.id)).toEqual(expect.arrayContaining([policy.invoice.id, walkInPolicy.invoice.id]));
    const byClient = (await invoices(exec, `&clientId=${walkIn.id}`)).json().data as { id: string }[];
    expect(byClient.map((i) => i.id)).toContain(walkInPolicy.invoice.id);
    expect(byClient.map((i) => i.id)).not.toContain(policy.invoice.id);
    const credited = (await invoices(exec, `&staffId=${officer.id}`)).json().data as { id: string }[];
    expect(credited.map((i) => i.id)).toContain(walkInPolicy.invoice.id);
    expect(credited.map((i) => i.id)).not.toContain(policy.invoice.id);
    const named = (await invoices(exec, `&staffName=${sandboxStaff('agent').lastName}`)).json().data as { id: string }[];
    expect(named.map((i) => i.id)).toContain(policy.invoice.id);
    expect(named.map((i) => i.id)).not.toContain(walkInPolicy.invoice.id);

    expect((await payments(agent)).json().data.map((t: { invoice: { id: string } }) => t.invoice.id)).toContain(policy.invoice.id);
    expect((await payments(exec, `&staffId=${officer.id}`)).json().data
      .every((t: { invoice: { id: string } }) => t.invoice.id !== policy.invoice.id)).toBe(true);
    expect((await payments(exec, `&staffName=${sandboxStaff('agent').firstName}`)).json().data.length).toBeGreaterThan(0);
    expect((await payments(agent, `&clientId=${walkIn.id}`)).json().data).toEqual([]);
  });

  it('lists claims within reach, by client and by the staff member credited', async () => {
    // Cover that started a month ago, paid: the client claims on it in its app.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await h.db.updateTable('policies').set({ state: 'ACTIVE', start_date: day(-30), end_date: day(300) }).where('id', '=', policy.id).execute();
    const filed = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: agentsClient.token, payload: {
      policyId: policy.id, dateOfLoss: day(-2), incidentLocation: 'Ring Road Central, Accra', description: 'Rear-ended at the lights.',
      lossCategory: 'MEDICALS', estimatedLossAmount: 2300.4, assets: [policy.assets[0].id],
    } });
    expect(filed.statusCode).toBe(201);
    const claimId = filed.json().data.id;
    const claims = (as: Session, query = '') => h.call({ method: 'GET', url: `/api/v1/staff/claims${query}`, token: as.token });
    expect((await claims(agent)).json().data.map((c: { id: string }) => c.id)).toEqual([claimId]);
    expect((await claims(exec, `?staffId=${agent.id}`)).json().data.map((c: { id: string }) => c.id)).toEqual([claimId]);
    expect((await claims(exec, `?staffName=${sandboxStaff('agent').lastName.toLowerCase()}`)).json().data.map((c: { id: string }) => c.id)).toEqual([claimId]);
    expect((await claims(exec, `?staffId=${officer.id}`)).json().data).toEqual([]);
    expect((await claims(exec, `?clientId=${walkIn.id}`)).json().data).toEqual([]);
    expect((await claims(await staffSession(h, 'head.claims'))).json().data).toEqual([]);
    expect((await h.call({ method: 'GET', url: '/api/v1/staff/claims', token: agentsClient.token })).statusCode).toBe(403);
  });
});

describe('checkoutCartForClient: POST /staff/clients/{id}/cart/checkout', () => {
  it('buys the client\'s cart for it, sold by the caller, at a premium within the caller\'s latitude', async () => {
    const client = await clientOf(null);
    const add = (body: object) => h.call({ method: 'POST', url: '/api/v1/client/cart', token: client.token, payload: body });
    const first = await add(autoBody({ productId: onlineAuto }));
    expect(first.statusCode).toBe(201);
    const second = await add(autoBody({ productId: onlineAuto, assets: [car] }));
    expect(second.statusCode).toBe(201);
    const checkout = (as: Session | string, body: object = {}, clientId = client.id) => h.call({
      method: 'POST', url: `/api/v1/staff/clients/${clientId}/cart/checkout`, token: typeof as === 'string' ? as : as.token, payload: body,
    });
    // Not the agent's client; not for a client token.
    expect((await checkout(agent)).statusCode).toBe(404);
    expect((await checkout(client.token)).statusCode).toBe(403);
    // The rated price of the one-car item, set 5% lower by a head of department.
    await h.call({ method: 'PATCH', url: `/api/v1/client/cart/${second.json().data.id}`, token: client.token, payload: { premium: Number((RATED * 0.95).toFixed(2)) } });
    const byOfficer = await checkout(officer);
    expect(byOfficer.statusCode).toBe(422); // an officer has no latitude, and nothing was written
    expect((await h.db.selectFrom('cart_items').select('id').where('client_id', '=', client.id).execute())).toHaveLength(2);

    const res = await checkout(headSales);
    expect(res.statusCode).toBe(201);
    const { policies, invoice } = res.json().data;
    expect(policies).toHaveLength(2);
    for (const policy of policies) expect(policy).toMatchObject({ createdBy: { id: headSales.id }, originatingStaff: { id: headSales.id }, state: 'PROCESSING' });
    expect(policies.map((p: { premium: number }) => p.premium)).toContain(Number((RATED * 0.95).toFixed(2)));
    expect(invoice.id).toBeDefined();
    expect((await h.db.selectFrom('cart_items').select('id').where('client_id', '=', client.id).execute())).toHaveLength(0);
    expect((await checkout(headSales)).json().code).toBe('CART_EMPTY');
  });
});
