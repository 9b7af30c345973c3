import { sql } from 'kysely';
import { jobHandlers, POLICY_LIFECYCLE_QUEUE, RECURRING } from '../../server/app/jobs.js';
import { settlePayment } from '../../server/domain/money/payments.js';
import { runPolicyLifecycle } from '../../server/domain/policies/lifecycle-job.js';
import { enqueue } from '../../server/platform/jobs/queue.js';
import { createWorker, slotKey } from '../../server/platform/jobs/worker.js';
import { TenantScope, type TransactionScope } from '../../server/platform/tenancy.js';
import { auth, type Caller, individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * Staff-only policy states (POST /staff/policies/{id}/state), both policy histories, and the
 * policy lifecycle job (start date, end date, settlement, renewal reminders), on one harness.
 */

let h: Harness;
let token: string;
let otherToken: string;
let otherTenant: Caller;
let productId: string;
const staff: Record<string, string> = {};

const DAY = 86_400_000;
/** A day relative to the server's clock, `YYYY-MM-DD`. */
const day = (offset = 0) => new Date(h.clock.now().getTime() + offset * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  otherToken = (await signUp(h, individualBody())).token;
  otherTenant = { token: (await signUp(h, individualBody(), h.otherApiKey)).token, apiKey: h.otherApiKey };
  productId = await onlineProductId(h, 'HOME');
  for (const handle of ['exec', 'branch.manager', 'head.sales', 'officer', 'agent']) staff[handle] = (await staffSession(h, handle)).token;
}, 120_000);
afterAll(async () => { await h.close(); });
// Tests move the clock; each starts from the real time again.
afterEach(() => { h.clock.set(new Date().toISOString()); });

const move = (id: string, body: unknown, as = staff.exec, apiKey?: string) =>
  h.call({ method: 'POST', url: `/api/v1/staff/policies/${id}/state`, token: as, apiKey, payload: body as object });
const staffHistory = (id: string, as = staff.exec) => h.call({ method: 'GET', url: `/api/v1/staff/policies/${id}/history`, token: as });
const clientHistory = (id: string, as: Caller = token) => h.call({ method: 'GET', url: `/api/v1/client/policies/${id}/history`, ...auth(as) });
const stateOf = async (id: string, as: Caller = token) =>
  (await h.call({ method: 'GET', url: `/api/v1/client/policies/${id}`, ...auth(as) })).json().data.state as string;
const notificationsAbout = (id: string) => h.db.selectFrom('notifications').select(['title', 'body', 'client_id'])
  .where('entity', '@>', JSON.stringify({ name: 'policy', id }) as never).orderBy('created_at').execute();

/** A home policy of the client's, PROCESSING with its invoice (DRAFT without), cover from `startDays` after the clock's today. */
async function invoiced(as: Caller = token, startDays = 0, generateInvoice = true) {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', ...auth(as), payload: {
      policyType: 'HOME', currency: 'GHS', startDate: day(startDays), endDate: day(startDays + 364), productId, businessType: 'NEW_BUSINESS', generateInvoice,
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { id: policy.id as string, policyNo: policy.policyNo as string, invoiceId: policy.invoice?.id as string, amount: policy.invoice?.amount as number,
    assetId: policy.assets[0].id as string, startDate: policy.startDate as string, endDate: policy.endDate as string };
}

/**
 * A policy of the other tenant's client (that tenant sells nothing the sandbox's client API could
 * buy here): a copy of one of ours, with its creation recorded.
 */
async function foreignPolicy(likeId: string) {
  const client = (await h.db.selectFrom('clients').select('id').where('tenant_id', '=', h.otherTenantId).executeTakeFirstOrThrow()).id;
  const { rows: [row] } = await sql<{ id: string }>`insert into policies (tenant_id, policy_no, client_id, product_id, policy_type, state, business_type,
      business_category, currency, exchange_rate, premium, premium_breakdown, start_date, end_date, generate_invoice)
    select ${h.otherTenantId}, 'POL-FOREIGN', ${client}, product_id, policy_type, state, business_type, business_category, currency, exchange_rate,
      premium, premium_breakdown, start_date, end_date, generate_invoice from policies where id = ${likeId} returning id`.execute(h.db);
  await h.db.insertInto('policy_state_changes').values({ tenant_id: h.otherTenantId, policy_id: row.id, from_state: null, to_state: 'PROCESSING',
    actor_kind: 'client', actor_id: client, notes: 'Created' }).execute();
  return row;
}

/** Pays the policy's invoice in full: cash at the branch, approved. */
async function payInFull(policy: { invoiceId: string; amount: number }, as: Caller = token) {
  const paid = await h.call({ method: 'POST', url: '/api/v1/client/transactions', ...auth(as),
    payload: { invoiceId: policy.invoiceId, paymentMethod: 'CASH', amount: policy.amount } });
  expect(paid.statusCode).toBe(201);
  await new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope, { transactionId: paid.json().data.id, to: 'APPROVED', actor: { by: 'staff', id: null }, at: h.clock.now() }));
}

/**
 * One run of the lifecycle job through the worker, as the server runs it (enqueued in the clock's
 * slot). After the clock jumps, other jobs fall due with it (messages, retention, the other
 * recurring slots) and a tick takes only a batch of them, oldest first: the worker ticks, as the
 * server's loop does after a full batch, until the lifecycle slot's job has run.
 */
async function runJob() {
  const worker = createWorker({ db: h.db, clock: h.clock, handlers: jobHandlers(h.app.services), recurring: RECURRING, intervalMs: 60_000 });
  const { dedupeKey } = slotKey(RECURRING.find((r) => r.queue === POLICY_LIFECYCLE_QUEUE)!, h.clock.now());
  const lifecycleJob = () => h.db.selectFrom('jobs').select(['done_at', 'failed_at', 'last_error']).where('dedupe_key', '=', dedupeKey).executeTakeFirst();
  for (let ticks = 0; ticks < 50; ticks += 1) {
    await worker.tick();
    const job = await lifecycleJob();
    if (job?.done_at || job?.failed_at) break;
  }
  const job = await lifecycleJob();
  expect(job).toMatchObject({ last_error: null, failed_at: null });
  expect(job?.done_at).not.toBeNull();
}

describe('staff move a policy through the staff-only states', () => {
  it('underwriting, accounts receivable, then released once paid; every move recorded with who, the client told', async () => {
    const policy = await invoiced();
    const exec = sandboxStaff('exec');
    const head = sandboxStaff('head.sales');

    let res = await move(policy.id, { state: 'UNDER_WRITER', notes: 'Referred to underwriting for the sum insured' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: policy.id, state: 'UNDER_WRITER' });
    res = await move(policy.id, { state: 'ACCOUNT_RECEIVABLE', notes: 'Underwritten; waiting for the premium' }, staff['head.sales']);
    expect(res.json().data.state).toBe('ACCOUNT_RECEIVABLE');

    // Not paid: staff do not grant cover on credit.
    res = await move(policy.id, { state: 'ACTIVE', notes: 'Release it please' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'INVOICE_UNPAID' });
    expect(res.json().message).toContain(policy.policyNo);

    // Paid in full while staff hold it: it stays ACCOUNT_RECEIVABLE until they release it, as the state its start date calls for.
    await payInFull(policy);
    expect(await stateOf(policy.id)).toBe('ACCOUNT_RECEIVABLE');
    res = await move(policy.id, { state: 'INACTIVE', notes: 'Premium received at the branch' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('START_DATE_PASSED');
    res = await move(policy.id, { state: 'ACTIVE', notes: 'Premium received at the branch' }, staff['branch.manager']);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.state).toBe('ACTIVE');
    expect(await stateOf(policy.id)).toBe('ACTIVE');

    // An edge the machine refuses staff: 409 naming both states, nothing recorded.
    res = await move(policy.id, { state: 'UNDER_WRITER', notes: 'Second look at the risk' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    expect(res.json().message).toContain('from ACTIVE to UNDER_WRITER');

    // Staff history: every move oldest first, staff named in full.
    const manager = sandboxStaff('branch.manager');
    const history = (await staffHistory(policy.id)).json().data;
    expect(history.map((c: { from: string | null; to: string }) => [c.from, c.to])).toEqual([
      [null, 'PROCESSING'], ['PROCESSING', 'UNDER_WRITER'], ['UNDER_WRITER', 'ACCOUNT_RECEIVABLE'], ['ACCOUNT_RECEIVABLE', 'ACTIVE'],
    ]);
    expect(history[0].by).toEqual({ kind: 'client' });
    expect(history[1]).toMatchObject({ notes: 'Referred to underwriting for the sum insured',
      by: { kind: 'staff', staff: { name: 'staff', id: exec.id, email: exec.email, fullName: `${exec.firstName} ${exec.lastName}` } } });
    expect(history[2].by.staff).toMatchObject({ id: head.id, email: head.email });
    expect(history[3].by.staff).toMatchObject({ id: manager.id });
    expect(Date.parse(history[3].at)).toBeGreaterThanOrEqual(Date.parse(history[0].at));

    // The client's history: the same moves, staff by id and name only.
    const mine = (await clientHistory(policy.id)).json().data;
    expect(mine.map((c: { to: string }) => c.to)).toEqual(['PROCESSING', 'UNDER_WRITER', 'ACCOUNT_RECEIVABLE', 'ACTIVE']);
    expect(mine[1].by).toEqual({ kind: 'staff', staff: { name: 'staff', id: exec.id, fullName: `${exec.firstName} ${exec.lastName}` } });
    expect(mine[1].notes).toBe('Referred to underwriting for the sum insured');

    // The client heard of each staff move.
    const told = (await notificationsAbout(policy.id)).map((n) => n.title);
    expect(told).toEqual(expect.arrayContaining([`Policy ${policy.policyNo} is now UNDER_WRITER`, `Policy ${policy.policyNo} is now ACCOUNT_RECEIVABLE`,
      `Policy ${policy.policyNo} is now ACTIVE`]));
  });

  it('declines and archives; nothing leaves ARCHIVED; a paid policy starting later is released INACTIVE', async () => {
    const declined = await invoiced();
    expect((await move(declined.id, { state: 'DECLINED', notes: 'Risk outside the insurer\'s appetite' }, staff['head.sales'])).json().data.state)
      .toBe('DECLINED');
    expect((await move(declined.id, { state: 'ARCHIVED', notes: 'Filed away' })).json().data.state).toBe('ARCHIVED');
    const res = await move(declined.id, { state: 'PROCESSING', notes: 'Open it again' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('from ARCHIVED to PROCESSING');

    // A draft moved to PROCESSING gets its invoice raised on the way.
    const draft = await invoiced(token, 0, false);
    const processing = await move(draft.id, { state: 'PROCESSING', notes: 'Client asked for the invoice at the branch' }, staff['head.sales']);
    expect(processing.statusCode).toBe(200);
    expect(processing.json().data).toMatchObject({ state: 'PROCESSING', invoice: { amount: expect.any(Number) } });
    expect((await staffHistory(draft.id)).json().data.map((c: { to: string; by: { kind: string } }) => `${c.to}:${c.by.kind}`))
      .toEqual(['DRAFT:client', 'PROCESSING:staff']);

    const later = await invoiced(token, 20);
    await move(later.id, { state: 'CREDIT_CONTROL', notes: 'Chasing the premium' });
    await payInFull(later);
    const early = await move(later.id, { state: 'ACTIVE', notes: 'Premium paid' });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('START_DATE_AHEAD');
    expect((await move(later.id, { state: 'INACTIVE', notes: 'Premium paid' })).json().data.state).toBe('INACTIVE');
  });

  it('refuses a bad body (400 naming the field), the wrong position (403), a client token (403), another tenant\'s or an out-of-reach policy (404)', async () => {
    const policy = await invoiced();
    for (const [body, field] of [
      [{ state: 'UNDER_WRITER' }, 'notes'], [{ state: 'UNDER_WRITER', notes: 'ok' }, 'notes'], [{ state: 'UNDER_WRITER', notes: '        ' }, 'notes'], [{ notes: 'Referred to underwriting' }, 'state'],
      [{ state: 'CANCELLED', notes: 'Cancel it at once' }, 'state'], [{ state: 'EXPIRED', notes: 'It is over now' }, 'state'],
    ] as const) {
      const res = await move(policy.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const officer = await move(policy.id, { state: 'UNDER_WRITER', notes: 'Referred to underwriting' }, staff.officer);
    expect(officer.statusCode).toBe(403);
    expect(officer.json().code).toBe('NOT_PERMITTED');
    const client = await move(policy.id, { state: 'UNDER_WRITER', notes: 'Referred to underwriting' }, token);
    expect(client.statusCode).toBe(403);
    expect(client.json().code).toBe('WRONG_TOKEN_KIND');
    expect((await h.call({ method: 'GET', url: `/api/v1/staff/policies/${policy.id}/history`, token })).json().code).toBe('WRONG_TOKEN_KIND');

    const foreign = await foreignPolicy(policy.id);
    expect((await move(foreign.id, { state: 'UNDER_WRITER', notes: 'Referred to underwriting' })).statusCode).toBe(404);
    expect((await staffHistory(foreign.id)).statusCode).toBe(404);
    // An agent reaches only the clients it brought in: this self-signed-up client is not one.
    expect((await staffHistory(policy.id, staff.agent)).statusCode).toBe(404);
    expect((await staffHistory(policy.id, staff.officer)).statusCode).toBe(200);
    // Another client's policy, and another tenant's, are 404 to the client.
    expect((await clientHistory(policy.id, otherToken)).statusCode).toBe(404);
    expect((await clientHistory(foreign.id)).statusCode).toBe(404);
    expect((await clientHistory(policy.id, otherTenant)).statusCode).toBe(404);
    expect((await clientHistory(foreign.id, otherTenant)).json().data.map((c: { to: string }) => c.to)).toEqual(['PROCESSING']);
    expect(await stateOf(policy.id)).toBe('PROCESSING');
  });
});

describe('the policy lifecycle job', () => {
  it('starts a paid policy on its start date, expires it past its end date, completes it once settled; reruns change nothing', async () => {
    const { token: own } = await signUp(h, individualBody());
    const policy = await invoiced(own, 10);
    await payInFull(policy, own);
    expect(await stateOf(policy.id, own)).toBe('INACTIVE');

    await runJob(); // before its start date: nothing
    expect(await stateOf(policy.id, own)).toBe('INACTIVE');

    h.clock.set(`${policy.startDate}T06:00:00Z`);
    await runJob();
    expect(await stateOf(policy.id, own)).toBe('ACTIVE');
    // A claim filed while covered, still open when the policy ends.
    const claim = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: own, payload: {
      policyId: policy.id, dateOfLoss: policy.startDate, dateOfNotification: policy.startDate, incidentLocation: 'House No. 14, Nii Ashie Street, East Legon',
      description: 'A burst pipe flooded the ground floor.', lossCategory: 'MEDICALS', estimatedLossAmount: 4850.75, assets: [policy.assetId],
    } });
    expect(claim.statusCode).toBe(201);

    h.clock.set(`${policy.endDate}T23:00:00Z`); // the last day of cover
    await runJob();
    expect(await stateOf(policy.id, own)).toBe('ACTIVE');

    h.clock.set(`${new Date(Date.parse(policy.endDate) + DAY).toISOString().slice(0, 10)}T00:30:00Z`);
    await runJob();
    expect(await stateOf(policy.id, own)).toBe('EXPIRED');
    const expired = (await clientHistory(policy.id, own)).json().data;
    await runJob(); // again, and directly: nothing more moves while the claim is open
    h.clock.advance(3 * DAY);
    const report = await runPolicyLifecycle(h.app.services, h.clock.now(), 30);
    expect(report.failed).toEqual([]);
    expect(await stateOf(policy.id, own)).toBe('EXPIRED');
    expect((await clientHistory(policy.id, own)).json().data).toEqual(expired);

    await h.db.updateTable('claims').set({ status: 'CLOSED' }).where('id', '=', claim.json().data.id).execute();
    await runJob();
    expect(await stateOf(policy.id, own)).toBe('COMPLETE');

    const history = (await staffHistory(policy.id)).json().data;
    expect(history.slice(-3).map((c: Record<string, unknown>) => [c.from, c.to, c.notes, c.by])).toEqual([
      ['INACTIVE', 'ACTIVE', 'Start date reached', { kind: 'system' }],
      ['ACTIVE', 'EXPIRED', 'End date passed', { kind: 'system' }],
      ['EXPIRED', 'COMPLETE', 'Settled: invoice paid in full and no claim open', { kind: 'system' }],
    ]);
    expect(history[1]).toMatchObject({ from: 'PROCESSING', to: 'INACTIVE', notes: 'Invoice paid in full', by: { kind: 'system' } });
    const told = (await notificationsAbout(policy.id)).map((n) => n.title);
    expect(told).toEqual(expect.arrayContaining([`Policy ${policy.policyNo} is now ACTIVE`, `Policy ${policy.policyNo} is now EXPIRED`,
      `Policy ${policy.policyNo} is now COMPLETE`]));
  });

  it('does not complete an expired policy whose invoice is not paid in full', async () => {
    const policy = await invoiced();
    await payInFull(policy);
    // As if the invoice had been raised (an endorsement's extra premium): part of it is owed again.
    await h.db.updateTable('invoices').set({ amount: String(policy.amount + 100) }).where('id', '=', policy.invoiceId).execute();
    h.clock.set(`${new Date(Date.parse(policy.endDate) + DAY).toISOString().slice(0, 10)}T08:00:00Z`);
    await runJob();
    expect(await stateOf(policy.id)).toBe('EXPIRED');
    h.clock.advance(DAY);
    await runJob();
    expect(await stateOf(policy.id)).toBe('EXPIRED');
  });

  it('reminds the client to renew once per policy and end date, across runs and two instances at once', async () => {
    const { token: own, account } = await signUp(h, individualBody());
    const policy = await invoiced(own);
    await payInFull(policy, own);
    const reminders = async () => (await notificationsAbout(policy.id)).filter((n) => n.title === `Policy ${policy.policyNo} ends on ${policy.endDate}`);

    h.clock.set(`${new Date(Date.parse(policy.endDate) - 31 * DAY).toISOString().slice(0, 10)}T08:00:00Z`);
    await runJob(); // 31 days before: not yet
    expect(await reminders()).toHaveLength(0);

    h.clock.set(`${new Date(Date.parse(policy.endDate) - 30 * DAY).toISOString().slice(0, 10)}T08:00:00Z`);
    const [a, b] = await Promise.all([runPolicyLifecycle(h.app.services, h.clock.now(), 30), runPolicyLifecycle(h.app.services, h.clock.now(), 30)]);
    expect(a.failed.concat(b.failed)).toEqual([]);
    const workers = ['instance-a', 'instance-b'].map((workerId) => createWorker({
      db: h.db, clock: h.clock, handlers: jobHandlers(h.app.services), recurring: RECURRING, intervalMs: 60_000, workerId,
    }));
    h.clock.advance(DAY);
    await Promise.all(workers.map((w) => w.tick()));
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ client_id: account.id });
    expect(sent[0].body).toContain('Renew it');
    expect(await h.db.selectFrom('policy_renewal_reminders').select('end_date').where('policy_id', '=', policy.id).execute())
      .toEqual([{ end_date: policy.endDate }]);
    // The message went out too (the client's email).
    expect(await h.db.selectFrom('outbox').select('template').where('recipient', '=', account.email).where('template', '=', 'policy-renewal-reminder')
      .execute()).toHaveLength(1);
  });

  it('handles each policy on its own: one that fails is rolled back and reported (the job fails, to retry) while the others go through', async () => {
    const [good, bad] = [await signUp(h, individualBody()), await signUp(h, individualBody())];
    const policies = [await invoiced(good.token), await invoiced(bad.token)];
    for (const [i, policy] of policies.entries()) await payInFull(policy, [good, bad][i].token);
    h.clock.set(`${new Date(Date.parse(policies[0].endDate) - 5 * DAY).toISOString().slice(0, 10)}T10:00:00Z`);
    const unreachable = { send: async (scope: TransactionScope, message: { recipient: string }) => {
      if (message.recipient === bad.account.email) throw new Error('mail server down');
      await h.app.services.notifier.send(scope, message as never);
    } };
    const report = await runPolicyLifecycle({ ...h.app.services, notifier: unreachable }, h.clock.now(), 30);
    expect(report.failed).toEqual([{ policyId: policies[1].id, step: 'remind', error: 'mail server down' }]);
    const reminded = await h.db.selectFrom('policy_renewal_reminders').select('policy_id').where('policy_id', 'in', policies.map((p) => p.id)).execute();
    expect(reminded).toEqual([{ policy_id: policies[0].id }]);
    expect((await notificationsAbout(policies[1].id)).filter((n) => n.title.includes('ends on'))).toEqual([]);

    // Through the queue the failure fails the job, which is retried; the policy is reminded once the mail server is back.
    const failing = createWorker({ db: h.db, clock: h.clock, handlers: jobHandlers({ ...h.app.services, notifier: unreachable }), intervalMs: 60_000 });
    const { dedupeKey } = slotKey(RECURRING.find((r) => r.queue === POLICY_LIFECYCLE_QUEUE)!, h.clock.now());
    await enqueue(h.db, { queue: POLICY_LIFECYCLE_QUEUE, dedupeKey, runAt: h.clock.now(), maxAttempts: 3 }, h.clock.now());
    await failing.tick();
    expect((await h.db.selectFrom('jobs').select('last_error').where('dedupe_key', '=', dedupeKey).executeTakeFirstOrThrow()).last_error)
      .toContain('mail server down');
    h.clock.advance(DAY);
    await runJob();
    expect((await notificationsAbout(policies[1].id)).filter((n) => n.title.includes('ends on'))).toHaveLength(1);
  });
});
