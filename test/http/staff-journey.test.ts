import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, plusDays, setOwnPassword, staffClientBody } from '../helpers/clients.js';

/**
 * The staff side end to end, through the API alone: the platform operator creates an insurer and a
 * broker; the broker's executive manager builds its organisation (a branch, a department, an agent
 * and a head of department); the insurer makes an OFFLINE product and assigns it to the broker;
 * the agent opens a client and sells that client the product; the client logs in and sees the
 * policy credited to the agent. Each step's forbidden neighbour is tried on the way.
 */

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface As { apiKey: string; token?: string }
const call = (as: As | null, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) => h.call({
  method, url: `/api/v1${url}`, apiKey: as?.apiKey ?? null, ...(as?.token && { token: as.token }), headers, ...(payload && { payload }),
});
const asOperator = (method: Method, url: string, payload?: object) => call(null, method, url, payload, { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY });

/** Logs a staff member in with their company's key: their session. */
async function staffLogin(apiKey: string, username: string, password: string): Promise<As & { id: string }> {
  const res = await call({ apiKey }, 'POST', '/staff/auth/login', { username, password });
  expect(res.statusCode).toBe(200);
  return { apiKey, token: res.json().data.accessToken, id: res.json().data.id };
}

const year = new Date().getUTCFullYear();
const car = {
  coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Hilux', registrationNo: 'GW 2210-25',
  chassisNumber: 'AHTFR22G106012345', cubicCapacity: 2400, seats: 5, bodyType: 'PICK_UP', usage: 'PRIVATE', sumInsured: 120000,
  noClaimDiscountYears: 1, policyExcess: 10, yearOfMake: year - 3,
};

it('an operator-made broker sells an insurer\'s OFFLINE product through its agent, and the client sees who sold it', async () => {
  // 1. The operator creates an insurer and a broker, each with its executive manager and Api-Key.
  const company = (type: string, n: string) => ({
    name: `${n} Ltd`, identifier: `${n.toUpperCase()}-1`, email: `info@${n}.example`, type, kind: 'NON_LIFE', shortName: n,
    subdomain: n, dbName: `${n}_db`, smsSenderId: n.slice(0, 11).toUpperCase(), country: 'GH',
    executiveManager: { firstName: 'Ama', lastName: n, email: `em@${n}.example`, password: 'Exec-Pass-2026' },
  });
  expect((await call(null, 'POST', '/operator/companies', company('BROKER', 'nobody'))).statusCode).toBe(401);
  expect((await call({ apiKey: h.apiKey }, 'POST', '/operator/companies', company('BROKER', 'nobody'))).statusCode).toBe(401);
  const insurerRes = await asOperator('POST', '/operator/companies', company('INSURER', 'adumassure'));
  expect(insurerRes.statusCode).toBe(201);
  const brokerRes = await asOperator('POST', '/operator/companies', company('BROKER', 'osubrokers'));
  expect(brokerRes.statusCode).toBe(201);
  const insurer = { id: insurerRes.json().data.company.id as string, key: insurerRes.json().data.apiKey.key as string };
  const broker = { id: brokerRes.json().data.company.id as string, key: brokerRes.json().data.apiKey.key as string };
  expect(brokerRes.json().data.executiveManager).toMatchObject({ position: 'EXECUTIVE_MANAGER', type: 'NORMAL_STAFF' });

  // 2. The broker's executive manager builds the organisation.
  const exec = await staffLogin(broker.key, 'em@osubrokers.example', 'Exec-Pass-2026');
  const branch = await call(exec, 'POST', '/staff/branches', { name: 'Osu Oxford Street', address: '14 Oxford Street, Osu, Accra' });
  expect(branch.statusCode).toBe(201);
  const department = await call(exec, 'POST', '/staff/departments', { name: 'Retail Motor', branchId: branch.json().data.id });
  expect(department.statusCode).toBe(201);
  const departmentId = department.json().data.id;
  const member = (email: string, extra: object) => ({ email, firstName: 'Kofi', lastName: 'Boateng', departmentId, password: 'Staff-Pass-2026', ...extra });
  const agentRes = await call(exec, 'POST', '/staff/members', member('agent@osubrokers.example', { type: 'AGENT', position: 'LEVEL_OFFICER', firstName: 'Kwabena' }));
  expect(agentRes.statusCode).toBe(201);
  expect(agentRes.json().data).toMatchObject({ type: 'AGENT', position: 'LEVEL_OFFICER', department: { id: departmentId } });
  const headRes = await call(exec, 'POST', '/staff/members', member('head@osubrokers.example', { position: 'HEAD_OF_DEPARTMENT', staffNo: 'OSU-02' }));
  expect(headRes.statusCode).toBe(201);
  expect(headRes.json().data).toMatchObject({ type: 'NORMAL_STAFF', position: 'HEAD_OF_DEPARTMENT' });
  const agent = await staffLogin(broker.key, 'agent@osubrokers.example', 'Staff-Pass-2026');
  const head = await staffLogin(broker.key, 'head@osubrokers.example', 'Staff-Pass-2026');
  // Neither the agent nor the head of department shapes the organisation.
  expect((await call(agent, 'POST', '/staff/branches', { name: 'Agent Branch' })).json().code).toBe('NOT_PERMITTED');
  expect((await call(head, 'POST', '/staff/members', member('x@osubrokers.example', { position: 'LEVEL_OFFICER' }))).json().code).toBe('NOT_PERMITTED');
  // The broker underwrites nothing: it makes no products.
  const autoRates = (await h.db.selectFrom('products').select('premium_rates').where('code', '=', 'AUTO-ONLINE').executeTakeFirstOrThrow()).premium_rates;
  const product = { name: 'Hilux Fleet Comprehensive', code: 'HILUX-OFFLINE', category: 'AUTO', distribution: 'OFFLINE', premiumRates: autoRates };
  expect((await call(exec, 'POST', '/staff/products', product)).json().code).toBe('NOT_AN_INSURER');

  // 3. The insurer makes an OFFLINE product and assigns it to the broker.
  const insurerExec = await staffLogin(insurer.key, 'em@adumassure.example', 'Exec-Pass-2026');
  const made = await call(insurerExec, 'POST', '/staff/products', product);
  expect(made.statusCode).toBe(201);
  const productId = made.json().data.id;
  expect((await call(agent, 'GET', `/staff/products/${productId}`)).statusCode).toBe(404); // not the broker's yet
  const assigned = await call(insurerExec, 'POST', `/staff/products/${productId}/assignments`, { companyId: broker.id });
  expect(assigned.statusCode).toBe(201);
  const seen = await call(agent, 'GET', `/staff/products/${productId}`);
  expect(seen.statusCode).toBe(200);
  expect(seen.json().data).toMatchObject({ distribution: 'OFFLINE', insurer: { id: insurer.id } });

  // 4. The agent opens a client and sells that client the OFFLINE product.
  const clientBody = staffClientBody(individualBody());
  const opened = await call(agent, 'POST', '/staff/clients', clientBody);
  expect(opened.statusCode).toBe(201);
  const clientId = opened.json().data.id;
  expect(opened.json().data).toMatchObject({ createdBy: { id: agent.id }, originatingStaff: { id: agent.id } });
  const start = plusDays(7);
  const end = new Date(Date.parse(start) + 364 * 86_400_000).toISOString().slice(0, 10);
  const body = { policyType: 'AUTO', currency: 'GHS', startDate: start, endDate: end, productId, businessType: 'NEW_BUSINESS', assets: [car] };
  // Another company's staff cannot reach the client: the insurer's executive manager gets 404.
  expect((await call(insurerExec, 'POST', `/staff/clients/${clientId}/policies`, body)).statusCode).toBe(404);
  const sold = await call(agent, 'POST', `/staff/clients/${clientId}/policies`, body);
  expect(sold.statusCode).toBe(201);
  const policy = sold.json().data;
  expect(policy).toMatchObject({
    state: 'PROCESSING', product: { id: productId, insurer: { id: insurer.id } }, client: { id: clientId },
    createdBy: { id: agent.id, fullName: 'Kwabena Boateng' }, originatingStaff: { id: agent.id },
  });

  // 5. The client logs in with the broker's key and sees the policy, credited to the agent.
  // The client sets its own password with the code it was sent (staff never choose one).
  await setOwnPassword(h, clientBody.email, 'Client-Pass-2026', broker.key);
  const login = await call({ apiKey: broker.key }, 'POST', '/auth/login', { username: clientBody.email, password: 'Client-Pass-2026' });
  expect(login.statusCode).toBe(200);
  const client = { apiKey: broker.key, token: login.json().data.accessToken as string };
  const mine = await call(client, 'GET', '/client/policies');
  expect(mine.json().data.map((p: { id: string }) => p.id)).toEqual([policy.id]);
  expect(mine.json().data[0].originatingStaff).toMatchObject({ id: agent.id, fullName: 'Kwabena Boateng', email: 'agent@osubrokers.example' });
  // The client itself cannot buy the OFFLINE product, nor make a staff call.
  expect((await call(client, 'POST', '/client/policies', body)).statusCode).toBe(400);
  expect((await call(client, 'GET', '/staff/policies')).json().code).toBe('WRONG_TOKEN_KIND');
  // The head of department serves the department's clients, the agent's included; the sandbox tenant's staff see none of it.
  const served = await call(head, 'GET', `/staff/policies?staffId=${agent.id}`);
  expect(served.json().data.map((p: { id: string }) => p.id)).toEqual([policy.id]);
  expect((await call({ apiKey: h.apiKey, token: agent.token }, 'GET', '/staff/policies')).statusCode).toBe(401);
});
