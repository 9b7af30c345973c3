import { jobHandlers } from '../../server/app/jobs.js';
import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { DELIVER_WEBHOOK_QUEUE } from '../../server/platform/webhooks/deliveries.js';
import { individualBody, lastMessageTo, signUp, staffClientBody } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxDepartment, sandboxStaff, staffSession } from '../helpers/staff.js';
import { webhookReceiver, type Received } from '../helpers/webhook-receiver.js';

/**
 * The events of people and products as an integrator receives them (issue 28): clients created,
 * updated and deactivated (by themselves and by staff), staff members created (by a manager, and a
 * new company's first executive manager by the platform operator) and deactivated, products
 * created, assigned and unassigned (recorded in both companies). Each is driven through the API,
 * delivered to a local receiver that verifies it with the Standard Webhooks library, and carries
 * the object as its own GET answers it then, with the previous values of what changed; a refused
 * change records nothing.
 */

let h: Harness;
let exec: string;
const execId = sandboxStaff('exec').id;
/** The sandbox broker's receiver, and the insurer's (the harness's other tenant). */
let broker: Awaited<ReturnType<typeof webhookReceiver>>;
let insurer: Awaited<ReturnType<typeof webhookReceiver>>;
let insurerExec: { id: string; token: string };

const PEOPLE = ['client.created', 'client.updated', 'client.deactivated', 'staff.created', 'staff.deactivated', 'product.created', 'product.assigned', 'product.unassigned'];

beforeAll(async () => {
  h = await createHarness();
  exec = (await staffSession(h, 'exec')).token;
  [broker, insurer] = [await webhookReceiver(), await webhookReceiver()];
  const member = await h.db.insertInto('staff').values({
    tenant_id: h.otherTenantId, email: 'exec@insurer.example', first_name: 'Yaw', last_name: 'Boateng', type: 'NORMAL_STAFF', position: 'EXECUTIVE_MANAGER',
  }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
  insurerExec = { id: member.id, token: (await h.app.services.signStaffAccessToken({ tenantId: h.otherTenantId, staffId: member.id, sessionVersion: member.session_version })).token };
  for (const [receiver, token, apiKey] of [[broker, exec, h.apiKey], [insurer, insurerExec.token, h.otherApiKey]] as const) {
    const res = await h.call({ method: 'POST', url: '/api/v1/staff/webhook-endpoints', token, apiKey, payload: { url: receiver.url, eventTypes: PEOPLE } });
    expect(res.statusCode).toBe(201);
    receiver.trust(res.json().data.secret);
  }
}, 120_000);
afterAll(async () => { await broker.close(); await insurer.close(); await h.close(); });

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, apiKey?: string) =>
  h.call({ method, url: `/api/v1${url}`, token, ...(apiKey && { apiKey }), ...(payload && { payload }) });

/** A worker of the webhook queue, as `npm start` runs it: runs until nothing is ready. */
async function deliverAll() {
  const worker = createWorker({ db: h.db, clock: h.clock, intervalMs: 60_000, batchSize: 50,
    handlers: { [DELIVER_WEBHOOK_QUEUE]: jobHandlers(h.app.services)[DELIVER_WEBHOOK_QUEUE] } });
  while (await worker.tick() > 0) { /* next batch */ }
}

/** What `receiver` got about object `id` since the last look, each verified with its endpoint's secret (then forgotten). */
async function receivedAbout(receiver: typeof broker, id: string): Promise<Received['event'][]> {
  await deliverAll();
  const mine = receiver.received.filter((r) => r.event.object.id === id);
  receiver.received.splice(0, receiver.received.length, ...receiver.received.filter((r) => r.event.object.id !== id));
  for (const got of mine) {
    expect(got.verifiedWith).toEqual([0]);
    expect(got.body).not.toMatch(/password|\$argon2|session_version/i);
  }
  return mine.map((r) => r.event);
}

/** How many events the company has recorded about object `id`. */
const eventCount = async (id: string) => Number((await h.db.selectFrom('domain_events').select((eb) => eb.fn.countAll().as('n'))
  .where('object_id', '=', id).executeTakeFirstOrThrow()).n);

const staffClient = async (id: string) => (await call(exec, 'GET', `/staff/clients/${id}`)).json().data;

describe('client events', () => {
  it('client.created when a client signs up (by the client) and when staff open one (by staff), with the staff view of the client', async () => {
    const signed = await signUp(h, individualBody({ password: 'Sign-Up-Pass-9' }));
    const [created] = await receivedAbout(broker, signed.account.id);
    expect(created).toMatchObject({ type: 'client.created', actor: { by: 'client', id: signed.account.id }, object: { type: 'client', id: signed.account.id },
      data: { previous: null } });
    expect(created.data.object).toEqual(await staffClient(signed.account.id));
    expect(JSON.stringify(created)).not.toContain('Sign-Up-Pass-9');

    const body = staffClientBody(individualBody());
    const opened = await call(exec, 'POST', '/staff/clients', body);
    expect(opened.statusCode).toBe(201);
    const id = opened.json().data.id;
    const events = await receivedAbout(broker, id);
    expect(events).toMatchObject([{ type: 'client.created', actor: { by: 'staff', id: execId }, data: { previous: null } }]);
    expect(events[0].data.object).toEqual(opened.json().data);
    expect(events[0].data.object).toMatchObject({ createdBy: { id: execId }, email: body.email });

    // Refused (the e-mail is taken): no client, no event.
    const before = await h.db.selectFrom('domain_events').select('id').where('type', '=', 'client.created').execute();
    expect((await call(exec, 'POST', '/staff/clients', { ...staffClientBody(individualBody()), email: body.email })).statusCode).toBe(409);
    expect(await h.db.selectFrom('domain_events').select('id').where('type', '=', 'client.created').execute()).toHaveLength(before.length);
  });

  it('client.updated for the client\'s own profile and contact changes and staff\'s, previous = the changed fields; nothing when nothing changed', async () => {
    const { account, token, body } = await signUp(h, individualBody({ city: 'Accra' }));
    await receivedAbout(broker, account.id);

    expect((await call(token, 'PATCH', '/client/account', { city: 'Kumasi', region: 'Ashanti' })).statusCode).toBe(200);
    let [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.updated', actor: { by: 'client', id: account.id }, data: { previous: { city: 'Accra', region: null } } });
    expect(Object.keys(event.data.previous!).sort()).toEqual(['city', 'region']);
    expect(event.data.object).toEqual(await staffClient(account.id));

    // The same values again: nothing changed, nothing recorded.
    expect((await call(token, 'PATCH', '/client/account', { city: 'Kumasi' })).statusCode).toBe(200);
    expect(await receivedAbout(broker, account.id)).toEqual([]);

    const newEmail = `new.${body.email}`;
    expect((await call(token, 'PUT', '/client/account/email', { oldEmail: body.email, newEmail })).statusCode).toBe(200);
    [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.updated', actor: { by: 'client', id: account.id }, data: { object: { email: newEmail }, previous: { email: body.email } } });

    expect((await call(token, 'POST', '/client/account/send-verification-code', { type: 'email' })).statusCode).toBe(200);
    const code = /code is (\d{6})/.exec((await lastMessageTo(h, newEmail))!.body)![1];
    expect((await call(token, 'POST', '/client/account/verify', { type: 'email', verificationCode: code })).statusCode).toBe(200);
    [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.updated', data: { object: { emailVerified: true }, previous: { emailVerified: false } } });

    const officer = sandboxStaff('officer');
    const changed = await call(exec, 'PATCH', `/staff/clients/${account.id}`, { address: '3 Ring Road', originatingStaffId: officer.id });
    expect(changed.statusCode).toBe(200);
    [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.updated', actor: { by: 'staff', id: execId },
      data: { object: { address: '3 Ring Road', originatingStaff: { id: officer.id } }, previous: { address: null, originatingStaff: null } } });
    expect(event.data.object).toEqual(changed.json().data);

    // Refused (a company's field on a person): no event.
    const count = await eventCount(account.id);
    expect((await call(exec, 'PATCH', `/staff/clients/${account.id}`, { companyName: 'Not A Person Ltd' })).statusCode).toBe(400);
    expect(await eventCount(account.id)).toBe(count);
  });

  it('client.deactivated when staff deactivate a client (previous isActive and deactivation), client.updated when they reactivate it, and when a client closes its account', async () => {
    const { account } = await signUp(h);
    await receivedAbout(broker, account.id);
    const deactivated = await call(exec, 'POST', `/staff/clients/${account.id}/deactivate`, { reason: 'Duplicate account' });
    expect(deactivated.statusCode).toBe(200);
    let [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.deactivated', actor: { by: 'staff', id: execId },
      data: { object: { isActive: false, deactivation: { by: { id: execId }, reason: 'Duplicate account' } }, previous: { isActive: true, deactivation: null } } });
    expect(event.data.object).toEqual(deactivated.json().data);
    // Already deactivated: 409, no second event.
    expect((await call(exec, 'POST', `/staff/clients/${account.id}/deactivate`, { reason: 'Again' })).statusCode).toBe(409);
    expect(await receivedAbout(broker, account.id)).toEqual([]);

    expect((await call(exec, 'POST', `/staff/clients/${account.id}/activate`)).statusCode).toBe(200);
    [event] = await receivedAbout(broker, account.id);
    expect(event).toMatchObject({ type: 'client.updated', actor: { by: 'staff', id: execId },
      data: { object: { isActive: true, deactivation: null }, previous: { isActive: false, deactivation: { reason: 'Duplicate account' } } } });

    // The client closes its account: a wrong password changes nothing; then by the client, its erased data in neither object nor previous.
    const own = await signUp(h, individualBody({ firstName: 'Abena' }));
    await receivedAbout(broker, own.account.id);
    expect((await call(own.token, 'DELETE', '/client/account', { password: 'Wrong-Pass-1', passwordConfirm: 'Wrong-Pass-1' })).statusCode).toBe(400);
    expect(await eventCount(own.account.id)).toBe(1);
    expect((await call(own.token, 'DELETE', '/client/account', { password: own.body.password, passwordConfirm: own.body.password })).statusCode).toBe(200);
    [event] = await receivedAbout(broker, own.account.id);
    expect(event).toMatchObject({ type: 'client.deactivated', actor: { by: 'client', id: own.account.id },
      data: { object: { id: own.account.id, isActive: false, email: null, firstName: null }, previous: { isActive: true } } });
    expect(JSON.stringify(event)).not.toContain(own.body.email);
    expect(JSON.stringify(event)).not.toContain('Abena');
  });
});

describe('staff events', () => {
  it('staff.created when a manager adds a member, staff.deactivated when one is deactivated (once), with the member as GET /staff/members answers', async () => {
    const email = `new.member.${Date.now()}@broker.example`;
    const added = await call(exec, 'POST', '/staff/members', {
      email, firstName: 'Esi', lastName: 'Addo', position: 'LEVEL_OFFICER', departmentId: sandboxDepartment('Retail Sales').id, password: 'Member-Pass-77',
    });
    expect(added.statusCode).toBe(201);
    const id = added.json().data.id;
    let [event] = await receivedAbout(broker, id);
    expect(event).toMatchObject({ type: 'staff.created', actor: { by: 'staff', id: execId }, object: { type: 'staff', id }, data: { previous: null } });
    expect(event.data.object).toEqual((await call(exec, 'GET', `/staff/members/${id}`)).json().data);
    expect(JSON.stringify(event)).not.toContain('Member-Pass-77');

    // Refused: the e-mail is taken (409), and nobody deactivates themselves (403): no event.
    expect((await call(exec, 'POST', '/staff/members', { email, firstName: 'Esi', lastName: 'Addo', position: 'LEVEL_OFFICER', departmentId: sandboxDepartment('Retail Sales').id })).statusCode).toBe(409);
    expect((await call(exec, 'POST', `/staff/members/${execId}/deactivate`)).statusCode).toBe(403);
    expect(await eventCount(execId)).toBe(0);

    const stopped = await call(exec, 'POST', `/staff/members/${id}/deactivate`);
    expect(stopped.statusCode).toBe(200);
    [event] = await receivedAbout(broker, id);
    expect(event).toMatchObject({ type: 'staff.deactivated', actor: { by: 'staff', id: execId }, data: { object: { id, isActive: false }, previous: { isActive: true } } });
    expect(event.data.object).toEqual(stopped.json().data);
    // Deactivating an inactive member again changes nothing: no event.
    expect((await call(exec, 'POST', `/staff/members/${id}/deactivate`)).statusCode).toBe(200);
    expect(await receivedAbout(broker, id)).toEqual([]);
  });

  it('staff.created in a new company\'s own events for the executive manager the platform operator creates with it (by the system)', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/operator/companies', apiKey: null, headers: { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY }, payload: {
      name: 'People Events Brokers', identifier: 'PEOPLE-EVENTS', email: 'info@people-events.example', type: 'BROKER', kind: 'NON_LIFE', shortName: 'PEB',
      country: 'GH', executiveManager: { firstName: 'Kwame', lastName: 'Asare', email: 'em@people-events.example', password: 'Exec-Pass-2026' },
    } });
    expect(res.statusCode).toBe(201);
    const { company, executiveManager, apiKey } = res.json().data;
    const { session_version: sessionVersion } = await h.db.selectFrom('staff').select('session_version').where('id', '=', executiveManager.id).executeTakeFirstOrThrow();
    const { token } = await h.app.services.signStaffAccessToken({ tenantId: company.id, staffId: executiveManager.id, sessionVersion });
    const events = (await call(token, 'GET', '/staff/events?type=staff.created', undefined, apiKey.key)).json().data;
    expect(events).toMatchObject([{ type: 'staff.created', actor: { by: 'system', id: null }, object: { type: 'staff', id: executiveManager.id }, data: { previous: null } }]);
    expect(events[0].data.object).toEqual(executiveManager);
    expect(JSON.stringify(events)).not.toContain('Exec-Pass-2026');
    // Not the sandbox broker's.
    expect(await receivedAbout(broker, executiveManager.id)).toEqual([]);
  });
});

describe('product events', () => {
  it('product.created by the insurer; product.assigned and product.unassigned in the insurer\'s events and in the assignee\'s, each with its own view', async () => {
    const { premium_rates: premiumRates } = await h.db.selectFrom('products').select('premium_rates').where('code', '=', 'AUTO-ONLINE').executeTakeFirstOrThrow();
    const made = await call(insurerExec.token, 'POST', '/staff/products', { name: 'Fleet Cover', code: 'PEOPLE-FLEET', category: 'AUTO', premiumRates }, h.otherApiKey);
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id;
    let [event] = await receivedAbout(insurer, id);
    expect(event).toMatchObject({ type: 'product.created', actor: { by: 'staff', id: insurerExec.id }, object: { type: 'product', id }, data: { previous: null } });
    expect(event.data.object).toEqual(made.json().data);

    const assigned = await call(insurerExec.token, 'POST', `/staff/products/${id}/assignments`, { companyId: h.tenantId }, h.otherApiKey);
    expect(assigned.statusCode).toBe(201);
    [event] = await receivedAbout(insurer, id);
    expect(event).toMatchObject({ type: 'product.assigned', actor: { by: 'staff', id: insurerExec.id },
      data: { object: { assignedTo: [{ companyId: h.tenantId }] }, previous: { assignedTo: [] } } });
    expect(event.data.object).toEqual(assigned.json().data);
    // The broker's own event: the product as its staff see it now (its assignment alone), from nothing before.
    [event] = await receivedAbout(broker, id);
    expect(event).toMatchObject({ type: 'product.assigned', actor: { by: 'staff', id: insurerExec.id },
      data: { object: { assignedBy: insurerExec.id, assignedTo: [{ companyId: h.tenantId }] }, previous: { assignedAt: null, assignedBy: null, assignedTo: [] } } });
    expect(event.data.object).toEqual((await call(exec, 'GET', `/staff/products/${id}`)).json().data);

    // Refused (assigned already): no event in either company.
    const count = await eventCount(id);
    expect((await call(insurerExec.token, 'POST', `/staff/products/${id}/assignments`, { companyId: h.tenantId }, h.otherApiKey)).statusCode).toBe(409);
    expect(await eventCount(id)).toBe(count);

    const withdrawn = await call(insurerExec.token, 'DELETE', `/staff/products/${id}/assignments/${h.tenantId}`, undefined, h.otherApiKey);
    expect(withdrawn.statusCode).toBe(200);
    [event] = await receivedAbout(insurer, id);
    expect(event).toMatchObject({ type: 'product.unassigned', data: { object: { assignedTo: [] }, previous: { assignedTo: [{ companyId: h.tenantId }] } } });
    expect(event.data.object).toEqual(withdrawn.json().data);
    // The broker no longer sees it; its event has the product with no assignment.
    expect((await call(exec, 'GET', `/staff/products/${id}`)).statusCode).toBe(404);
    [event] = await receivedAbout(broker, id);
    expect(event).toMatchObject({ type: 'product.unassigned', actor: { by: 'staff', id: insurerExec.id },
      data: { object: { id, code: 'PEOPLE-FLEET', assignedAt: null, assignedBy: null, assignedTo: [] },
        previous: { assignedBy: insurerExec.id, assignedTo: [{ companyId: h.tenantId }] } } });
  });
});
