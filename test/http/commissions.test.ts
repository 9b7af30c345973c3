import ExcelJS from 'exceljs';
import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { individualBody, plusDays } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * Commission statements over a seeded period, built through the API alone: the operator makes an
 * insurer and a broker; the insurer makes two OFFLINE home products, one paying a FEE of 150 a
 * policy, one 10% standard and 2.5% overrider, and assigns both to the broker; the broker's
 * executive builds a department with a head and two agents; the agents open clients and sell; cash
 * taken by the agents is approved by the head. The figures below are worked by hand.
 *
 * Agent A, day 1 (every premium is 1% of a sum insured, so 100 000 insures for 1 000):
 * - P1, percentage product, premium 1 000, paid in full: 12.5% of 1 000 = 125 (100 + 25).
 * - P2, fee product, premium 1 000, 400 paid: 150 x 400/1 000 = 60.
 * - P3, percentage product, premium 2 000, 500 paid and approved, 300 more recorded but never
 *   approved, then cancelled (closure approved, which rejects the 300): 12.5% of 500 = 62.5.
 * Agent Z, day 1: P4, percentage product, premium 1 000, paid in full: 125.
 * Agent A, day 3: the 600 left on P2: 150 x 600/1 000 = 90.
 */

let h: Harness;
interface As { apiKey: string; token?: string; id?: string }
type Method = 'GET' | 'POST' | 'PATCH';
const call = (as: As | null, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) => h.call({
  method, url: `/api/v1${url}`, apiKey: as?.apiKey ?? null, ...(as?.token && { token: as.token }), headers, ...(payload && { payload }),
});
async function ok(as: As | null, method: Method, url: string, payload: object | undefined, status: number, headers?: Record<string, string>) {
  const res = await call(as, method, url, payload, headers);
  expect({ url, status: res.statusCode, body: res.statusCode === status ? null : res.json() }).toEqual({ url, status, body: null });
  return res.json().data;
}
const asOperator = (url: string, payload: object) => ok(null, 'POST', url, payload, 201, { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY });

async function staffLogin(apiKey: string, username: string, password: string): Promise<As & { id: string; token: string }> {
  const data = await ok({ apiKey }, 'POST', '/staff/auth/login', { username, password }, 200);
  return { apiKey, token: data.accessToken, id: data.id };
}

let broker: { id: string; key: string };
let insurerId: string;
let exec: As, head: As, agentA: As & { id: string }, agentZ: As & { id: string };
let feeProduct: string, percentProduct: string;
let day1: string, day3: string;
const policies: Record<'p1' | 'p2' | 'p3' | 'p4', { id: string; invoiceId: string; premium: number }> = {} as never;

const statement = (as: As, query: string) => call(as, 'GET', `/staff/commissions?${query}`);

beforeAll(async () => {
  h = await createHarness();
  day1 = h.clock.now().toISOString().slice(0, 10);
  const company = (type: string, n: string) => ({
    name: `${n} Ltd`, identifier: `${n.toUpperCase()}-1`, email: `info@${n}.example`, type, kind: 'NON_LIFE', shortName: n,
    subdomain: n, dbName: `${n}_db`, smsSenderId: n.slice(0, 11).toUpperCase(), country: 'GH',
    executiveManager: { firstName: 'Ama', lastName: n, email: `em@${n}.example`, password: 'Exec-Pass-2026' },
  });
  const insurer = await asOperator('/operator/companies', company('INSURER', 'komfoassure'));
  const made = await asOperator('/operator/companies', company('BROKER', 'labadibrokers'));
  insurerId = insurer.company.id;
  broker = { id: made.company.id, key: made.apiKey.key };

  // The insurer's two OFFLINE home products, assigned to the broker.
  const insurerExec = await staffLogin(insurer.apiKey.key, 'em@komfoassure.example', 'Exec-Pass-2026');
  const product = async (code: string, commissions: object) => {
    const p = await ok(insurerExec, 'POST', '/staff/products', {
      name: `Home ${code}`, code, category: 'HOME', distribution: 'OFFLINE', premiumRates: { rate: 1, minimumPremium: 100 },
      standardCommission: null, overriderCommission: null, otherCommission: null, ...commissions,
    }, 201);
    await ok(insurerExec, 'POST', `/staff/products/${p.id}/assignments`, { companyId: broker.id }, 201);
    return p.id as string;
  };
  feeProduct = await product('HOME-FEE', { standardCommission: { type: 'FEE', value: 150 } });
  percentProduct = await product('HOME-PCT', { standardCommission: { type: 'PERCENTAGE', value: 10 }, overriderCommission: { type: 'PERCENTAGE', value: 2.5 } });

  // The broker's department: a head and two agents.
  exec = await staffLogin(broker.key, 'em@labadibrokers.example', 'Exec-Pass-2026');
  const branch = await ok(exec, 'POST', '/staff/branches', { name: 'Labadi Road', address: '3 Labadi Road, Accra' }, 201);
  const department = await ok(exec, 'POST', '/staff/departments', { name: 'Retail Home', branchId: branch.id }, 201);
  const member = async (email: string, extra: object) => {
    await ok(exec, 'POST', '/staff/members', { email, firstName: 'Yaw', lastName: email.split('@')[0], departmentId: department.id, password: 'Staff-Pass-2026', ...extra }, 201);
    return staffLogin(broker.key, email, 'Staff-Pass-2026');
  };
  head = await member('head@labadibrokers.example', { position: 'HEAD_OF_DEPARTMENT' });
  agentA = await member('agenta@labadibrokers.example', { type: 'AGENT', position: 'LEVEL_OFFICER' });
  agentZ = await member('agentz@labadibrokers.example', { type: 'AGENT', position: 'LEVEL_OFFICER' });

  // Sales, and cash taken by the agents and approved by the head.
  const open = async (agent: As) => {
    const { password: _none, ...body } = individualBody();
    const client = await ok(agent, 'POST', '/staff/clients', body, 201);
    return { id: client.id as string, email: body.email as string };
  };
  const sell = async (agent: As, clientId: string, productId: string, sumInsured: number) => {
    const policy = await ok(agent, 'POST', `/staff/clients/${clientId}/policies`, {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(7), endDate: plusDays(7 + 364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured, usage: 'PRIVATE', location: 'House No. 3, Labadi Road, Accra' }],
    }, 201);
    return { id: policy.id as string, invoiceId: policy.invoice.id as string, premium: policy.premium as number };
  };
  const cash = (agent: As, invoiceId: string, amount: number) =>
    ok(agent, 'POST', '/staff/transactions', { invoiceId, paymentMethod: 'CASH', amount, payee: 'Kofi Mensah' }, 201);
  const paid = async (agent: As, invoiceId: string, amount: number) => {
    const payment = await cash(agent, invoiceId, amount);
    await ok(head, 'POST', `/staff/transactions/${payment.id}/approve`, { notes: 'Cash counted at the Labadi till' }, 200);
  };

  const clientA = await open(agentA);
  const leaving = await open(agentA);
  const clientZ = await open(agentZ);
  policies.p1 = await sell(agentA, clientA.id, percentProduct, 100_000);
  policies.p2 = await sell(agentA, clientA.id, feeProduct, 100_000);
  policies.p3 = await sell(agentA, leaving.id, percentProduct, 200_000);
  policies.p4 = await sell(agentZ, clientZ.id, percentProduct, 100_000);
  expect([policies.p1.premium, policies.p2.premium, policies.p3.premium, policies.p4.premium]).toEqual([1000, 1000, 2000, 1000]);
  await paid(agentA, policies.p1.invoiceId, 1000);
  await paid(agentA, policies.p2.invoiceId, 400);
  await paid(agentA, policies.p3.invoiceId, 500);
  await cash(agentA, policies.p3.invoiceId, 300); // never approved
  await paid(agentZ, policies.p4.invoiceId, 1000);

  // P3's client sets its own password (a set-up through a reset code) and asks to close it; the head approves.
  await ok({ apiKey: broker.key }, 'POST', '/auth/password/request-reset', { username: leaving.email }, 200);
  const [message] = await ok({ apiKey: broker.key }, 'GET', `/sandbox/messages?recipient=${encodeURIComponent(leaving.email)}&template=password-reset-code&limit=1`, undefined, 200);
  await ok({ apiKey: broker.key }, 'POST', '/auth/password/reset', { username: leaving.email, resetCode: message.code, password: 'Leaving-Pass-2026', passwordConfirm: 'Leaving-Pass-2026' }, 200);
  const client = { apiKey: broker.key, token: (await ok({ apiKey: broker.key }, 'POST', '/auth/login', { username: leaving.email, password: 'Leaving-Pass-2026' }, 200)).accessToken };
  const closure = await ok(client, 'POST', '/client/policies/closure', { policyId: policies.p3.id, reason: 'House sold to a new owner' }, 201);
  await ok(head, 'POST', `/staff/policy-closures/${closure.id}/approve`, { notes: 'Sale deed seen' }, 200);
  expect((await ok(agentA, 'GET', `/staff/policies/${policies.p3.id}`, undefined, 200)).state).toBe('CANCELLED');

  // Two days later, the rest of P2.
  h.clock.advance(2 * 86_400_000);
  day3 = h.clock.now().toISOString().slice(0, 10);
  await paid(agentA, policies.p2.invoiceId, 600);
}, 300_000);
afterAll(async () => { await h.close(); });

const figures = (policiesCount: number, premiumReceived: number, standard: number, overrider: number, other = 0) => ({
  currency: 'GHS', policiesCount, premiumReceived, standardCommission: standard, overriderCommission: overrider, otherCommission: other,
  commission: standard + overrider + other,
});

describe('getCommissionStatement: GET /staff/commissions', () => {
  it("answers agent A's day 1 by product as worked by hand: FEE pro rata, PERCENTAGE of what was received, the cancelled policy on what it kept", async () => {
    const res = await statement(agentA, `from=${day1}&to=${day1}&groupBy=product`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ company: { id: broker.id, type: 'BROKER' }, from: day1, to: day1, groupBy: 'product' });
    expect(data.lines).toEqual([
      { ...figures(1, 400, 60, 0), staff: null, company: null,
        product: { id: feeProduct, code: 'HOME-FEE', name: 'Home HOME-FEE', standardCommission: { type: 'FEE', value: 150 }, overriderCommission: null, otherCommission: null } },
      { ...figures(2, 1500, 150, 37.5), staff: null, company: null, product: expect.objectContaining({ id: percentProduct, code: 'HOME-PCT' }) },
    ]);
    expect(data.totals).toEqual([figures(3, 1900, 210, 37.5)]);
  });

  it('counts money on the day it was confirmed: day 3 alone has the rest of the fee, days 1 to 3 the whole of it', async () => {
    const later = (await statement(agentA, `from=${day3}&to=${day3}&groupBy=product`)).json().data;
    expect(later.lines).toHaveLength(1);
    expect(later.lines[0]).toMatchObject({ ...figures(1, 600, 90, 0), product: { id: feeProduct } });
    const both = (await statement(agentA, `from=${day1}&to=${day3}&groupBy=staff`)).json().data;
    expect(both.lines).toEqual([{ ...figures(3, 2500, 300, 37.5), staff: { name: 'staff', id: agentA.id, fullName: 'Yaw agenta', email: 'agenta@labadibrokers.example' }, company: null, product: null }]);
    expect(both.totals).toEqual([figures(3, 2500, 300, 37.5)]);
    // The DD-MM-YYYY form names the same days.
    const [y, m, d] = day1.split('-');
    expect((await statement(agentA, `from=${d}-${m}-${y}&to=${day3}`)).json().data.totals).toEqual(both.totals);
  });

  it("shows an agent its own sales only; another agent's staffId answers an empty statement", async () => {
    const own = (await statement(agentZ, `from=${day1}&to=${day3}`)).json().data;
    expect(own.lines.map((l: { staff: { id: string } }) => l.staff.id)).toEqual([agentZ.id]);
    expect(own.totals).toEqual([figures(1, 1000, 100, 25)]);
    const other = await statement(agentZ, `from=${day1}&to=${day3}&staffId=${agentA.id}`);
    expect(other.statusCode).toBe(200);
    expect(other.json().data).toMatchObject({ lines: [], totals: [] });
  });

  it("shows the head its department's sellers, by staff and by insurer, and the executive the same; staffId and productId narrow it", async () => {
    for (const manager of [head, exec]) {
      const byStaff = (await statement(manager, `from=${day1}&to=${day3}`)).json().data;
      expect(byStaff.lines.map((l: { staff: { id: string }; commission: number }) => [l.staff.id, l.commission]))
        .toEqual([[agentA.id, 337.5], [agentZ.id, 125]]);
      expect(byStaff.totals).toEqual([figures(4, 3500, 400, 62.5)]);
      const byCompany = (await statement(manager, `from=${day1}&to=${day3}&groupBy=company`)).json().data;
      expect(byCompany.lines).toEqual([{ ...figures(4, 3500, 400, 62.5), staff: null, product: null, company: { id: insurerId, name: 'komfoassure Ltd', type: 'INSURER' } }]);
    }
    const one = (await statement(head, `from=${day1}&to=${day3}&staffId=${agentA.id}&productId=${percentProduct}`)).json().data;
    expect(one.totals).toEqual([figures(2, 1500, 150, 37.5)]);
  });

  it('answers an empty statement for a period with no money confirmed', async () => {
    const res = await statement(exec, 'from=2020-01-01&to=2020-12-31');
    expect(res.json().data).toMatchObject({ lines: [], totals: [] });
  });

  it('refuses a client token (403), a reversed or too long period and a missing date (400)', async () => {
    const token = (await ok({ apiKey: broker.key }, 'POST', '/auth/signup', individualBody(), 201)).accessToken as string;
    const client = await call({ apiKey: broker.key, token }, 'GET', `/staff/commissions?from=${day1}&to=${day1}`);
    expect(client.statusCode).toBe(403);
    expect(client.json().code).toBe('WRONG_TOKEN_KIND');
    expect((await statement(exec, `from=${day3}&to=${day1}`)).statusCode).toBe(400);
    expect((await statement(exec, 'from=2025-01-01&to=2026-01-02')).statusCode).toBe(400);
    expect((await statement(exec, 'from=2026-02-30&to=2026-03-01')).statusCode).toBe(400);
    expect((await statement(exec, `from=${day1}`)).statusCode).toBe(400);
  });
});

describe('exportCommissionStatement: GET /staff/commissions.xlsx', () => {
  it('answers a workbook with the same lines and totals as the JSON statement', async () => {
    const query = `from=${day1}&to=${day3}&groupBy=staff`;
    const json = (await statement(head, query)).json().data;
    const res = await call(head, 'GET', `/staff/commissions.xlsx?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-disposition']).toContain(`commissions-${day1}-${day3}-staff.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Commissions')!;
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Staff member', 'Currency', 'Policies', 'Premium received', 'Standard commission', 'Overrider commission', 'Other commission', 'Commission']);
    const asRow = (label: string, f: Record<string, unknown>) => [label, f.currency, f.policiesCount, f.premiumReceived, f.standardCommission,
      f.overriderCommission, f.otherCommission, f.commission];
    expect(rows.slice(1, 3)).toEqual(json.lines.map((l: { staff: { fullName: string } } & Record<string, unknown>) => asRow(l.staff.fullName, l)));
    expect(rows[rows.length - 1]).toEqual(asRow('Total', json.totals[0]));
    expect(rows[rows.length - 1]).toEqual(['Total', 'GHS', 4, 3500, 400, 62.5, 0, 462.5]);
  });

  it('is refused to a client token and checks the period as the JSON statement does', async () => {
    const token = (await ok({ apiKey: broker.key }, 'POST', '/auth/signup', individualBody(), 201)).accessToken as string;
    expect((await call({ apiKey: broker.key, token }, 'GET', `/staff/commissions.xlsx?from=${day1}&to=${day1}`)).statusCode).toBe(403);
    expect((await call(exec, 'GET', `/staff/commissions.xlsx?from=${day3}&to=${day1}`)).statusCode).toBe(400);
  });
});
