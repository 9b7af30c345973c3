import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { OutboxTable } from '../../server/platform/db/schema.js';
import { jobHandlers } from '../../server/app/jobs.js';
import { ensureApiKey } from '../../server/platform/db/seed.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { forgetSentCodes } from '../../server/platform/messages/retention.js';
import { DELIVER_MESSAGE_QUEUE } from '../../server/platform/notifier.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo, individualBody, signUp } from '../helpers/clients.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * The e-mails and SMS the API sent, read back (server/domain/accounts/message-view.ts): by the
 * client or staff member they were for, one-time codes masked, and in the sandbox mailbox, whole,
 * for a sandbox Api-Key on a server not in production only.
 */

let h: Harness;
const MASK = '••••••';
const OFFICER = sandboxStaff('officer');

beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

/** An outbox row as the notifier writes one (a notice unless `fields` say otherwise), at `created_at`. */
async function message(fields: Partial<Insertable<OutboxTable>> & { created_at: Date }) {
  const id = randomUUID();
  await h.db.insertInto('outbox').values({
    id, tenant_id: h.tenantId, channel: 'email', recipient: 'someone@example.com', template: 'payment-received', purpose: 'notice',
    subject: 'Payment received', body: 'We received GHS 450.00. Thank you.', sender: JSON.stringify({ name: 'Coverline Sandbox Brokers' }),
    ...fields,
  }).execute();
  return id;
}

/** A new client of the tenant (of the other one with its key), with its e-mail address. */
async function client(apiKey?: string) {
  const signed = await signUp(h, individualBody(), apiKey);
  return { ...signed, email: signed.body.email as string };
}

/** Runs the delivery jobs that are due, as a server's background worker does (the harness runs none). */
async function deliverQueuedMessages() {
  const deliver = jobHandlers(h.app.services)[DELIVER_MESSAGE_QUEUE];
  const worker = createWorker({ db: h.db, clock: h.clock, handlers: { [DELIVER_MESSAGE_QUEUE]: deliver }, intervalMs: 60_000, batchSize: 500, workerId: 'test-messages' });
  await worker.tick();
}

const list = (url: string, options: { token?: string; apiKey?: string | null } = {}) => h.call({ method: 'GET', url: `/api/v1${url}`, ...options });
const requestReset = (username: string, apiKey?: string) =>
  h.call({ method: 'POST', url: '/api/v1/auth/password/request-reset', payload: { username }, apiKey });

describe('listAccountMessages: GET /client/account/messages', () => {
  it('lists the client\'s own messages, newest first, the reset code masked wherever it appears', async () => {
    const { token, email } = await client();
    expect((await requestReset(email)).statusCode).toBe(200);
    const code = await codeSentTo(h, email);

    const res = await list('/client/account/messages', { token });
    expect(res.statusCode).toBe(200);
    const { data, paginator } = res.json();
    expect(data.map((m: { template: string }) => m.template)).toEqual(['password-reset-code', 'welcome']);
    const [reset] = data;
    expect(reset).toMatchObject({ channel: 'email', recipient: email, purpose: 'code', status: expect.any(String) });
    expect(reset.text).toContain(MASK);
    expect(JSON.stringify(reset)).not.toContain(code);
    expect(reset).not.toHaveProperty('code');
    expect(reset).not.toHaveProperty('html');
    expect(paginator).toMatchObject({ itemsCount: 2, page: 1, nextCursor: null });
  });

  it('masks every occurrence of the code in the subject and the text, and shows the sender and the delivery state', async () => {
    const { token, account } = await signUp(h);
    await message({
      client_id: account.id, purpose: 'code', template: 'verify-email', secret: '482913', created_at: new Date(Date.now() + 60_000),
      subject: 'Code 482913', body: 'Your code is 482913. Again: 482913.', html: '<p>482913</p>', status: 'RETRYING', attempts: 2,
      last_error: 'connect ECONNREFUSED', next_attempt_at: new Date('2030-01-01T00:00:00Z'),
      sender: JSON.stringify({ name: 'Coverline Sandbox Brokers', replyTo: 'support@sandbox-brokers.example' }),
    });
    const [first] = (await list('/client/account/messages', { token })).json().data;
    expect(first).toMatchObject({
      purpose: 'code', subject: `Code ${MASK}`, text: `Your code is ${MASK}. Again: ${MASK}.`, status: 'RETRYING', attempts: 2,
      sender: { name: 'Coverline Sandbox Brokers', replyTo: 'support@sandbox-brokers.example' }, nextAttemptAt: '2030-01-01T00:00:00.000Z',
      sentAt: null, failedAt: null,
    });
    expect(first).not.toHaveProperty('lastError');
  });

  it('never lists another client\'s messages, nor another tenant\'s', async () => {
    const mine = await client();
    const other = await client();
    await requestReset(other.email);
    const foreign = await client(h.otherApiKey);
    await requestReset(foreign.email, h.otherApiKey);
    await message({ client_id: other.account.id, created_at: new Date() });

    const data = (await list('/client/account/messages', { token: mine.token })).json().data as { recipient: string }[];
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((m) => m.recipient === mine.email)).toBe(true);
  });

  it('filters by channel and status, and pages newest first with ties broken by id, by page or by cursor', async () => {
    const { token, account } = await signUp(h);
    const at = new Date('2026-01-01T00:00:00Z');
    const ids = [
      await message({ client_id: account.id, created_at: at }),
      await message({ client_id: account.id, created_at: at }),
      await message({ client_id: account.id, created_at: new Date('2026-01-02T00:00:00Z'), channel: 'sms', recipient: '+233241234567', subject: null, status: 'SENT' }),
    ];
    const tied = ids.slice(0, 2).sort().reverse();

    const sms = (await list('/client/account/messages?channel=sms', { token })).json();
    expect(sms.data.map((m: { id: string }) => m.id)).toEqual([ids[2]]);
    expect(sms.data[0]).toMatchObject({ channel: 'sms', subject: null, status: 'SENT' });
    const queued = (await list('/client/account/messages?status=QUEUED&limit=500', { token })).json().data as { id: string; status: string }[];
    expect(queued.every((m) => m.status === 'QUEUED')).toBe(true);
    expect(queued.map((m) => m.id)).toEqual(expect.arrayContaining(ids.slice(0, 2)));

    const all = (await list('/client/account/messages?limit=500', { token })).json().data.map((m: { id: string }) => m.id) as string[];
    expect(all.slice(-3)).toEqual([ids[2], ...tied]);

    // The same list walked by cursor, a row a page.
    const walked: string[] = [];
    let after: string | null = null;
    do {
      const page: { data: { id: string }[]; paginator: { nextCursor: string | null } } =
        (await list(`/client/account/messages?limit=1${after ? `&after=${after}` : ''}`, { token })).json();
      walked.push(...page.data.map((m) => m.id));
      after = page.paginator.nextCursor;
    } while (after !== null);
    expect(walked).toEqual(all);
    const before = (await list('/client/account/messages?limit=1', { token })).json().paginator.nextCursor;
    const both = await list(`/client/account/messages?page=1&after=${before}`, { token });
    expect(both.statusCode).toBe(400);
  });

  it('refuses a staff token (403), and no token (401)', async () => {
    const { token } = await staffSession(h, 'officer');
    const res = await list('/client/account/messages', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WRONG_TOKEN_KIND');
    expect((await list('/client/account/messages')).statusCode).toBe(401);
  });
});

describe('listStaffMessages: GET /staff/me/messages', () => {
  it('lists the staff member\'s own messages, the reset code masked; never a client\'s or another member\'s', async () => {
    const { token } = await staffSession(h, 'officer');
    const reset = await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username: OFFICER.email } });
    expect(reset.statusCode).toBe(200);
    const code = await codeSentTo(h, OFFICER.email);
    await message({ staff_id: sandboxStaff('head.sales').id, recipient: sandboxStaff('head.sales').email, created_at: new Date() });

    const res = await list('/staff/me/messages', { token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { recipient: string; template: string; text: string }[];
    expect(data.every((m) => m.recipient === OFFICER.email)).toBe(true);
    const [newest] = data;
    expect(newest).toMatchObject({ template: 'password-reset-code', purpose: 'code' });
    expect(newest.text).toContain(MASK);
    expect(JSON.stringify(data)).not.toContain(code);
  });

  it('refuses a client token (403)', async () => {
    const { token } = await signUp(h);
    const res = await list('/staff/me/messages', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WRONG_TOKEN_KIND');
  });
});

describe('listSandboxMessages: GET /sandbox/messages', () => {
  it('shows the reset code unmasked to the sandbox Api-Key alone, and the code resets the password', async () => {
    const { email } = await client();
    expect((await requestReset(email)).statusCode).toBe(200);

    const res = await list(`/sandbox/messages?recipient=${encodeURIComponent(email.toUpperCase())}&template=password-reset-code&limit=1`);
    expect(res.statusCode).toBe(200);
    const [found] = res.json().data;
    const code = await codeSentTo(h, email);
    expect(found).toMatchObject({ recipient: email, template: 'password-reset-code', purpose: 'code', code, channel: 'email' });
    expect(found.text).toContain(code);
    expect(found.html).toContain(code);
    expect(found).toMatchObject({ status: 'QUEUED', provider: null, providerMessageId: null, sentAt: null, sender: { name: 'Coverline Sandbox Brokers' } });

    // Once the delivery job has run (the sandbox's transports), the mailbox shows it sent.
    await deliverQueuedMessages();
    const [sent] = (await list(`/sandbox/messages?recipient=${encodeURIComponent(email)}&template=password-reset-code&limit=1`)).json().data;
    expect(sent).toMatchObject({ id: found.id, status: 'SENT', attempts: 1, provider: 'sandbox', providerMessageId: `sbx_msg_${found.id}`, lastError: null });
    expect(Date.parse(sent.sentAt)).not.toBeNaN();

    const reset = await h.call({ method: 'POST', url: '/api/v1/auth/password/reset',
      payload: { username: email, resetCode: found.code, password: 'n3w-Secret!', passwordConfirm: 'n3w-Secret!' } });
    expect(reset.statusCode).toBe(200);
    const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: email, password: 'n3w-Secret!' } });
    expect(login.statusCode).toBe(200);
  });

  it('filters by recipient (an e-mail in any case, a phone number exactly), channel and template, newest first', async () => {
    const phone = `+23320${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const older = await message({ channel: 'sms', recipient: phone, subject: null, body: 'Your code is 105377.', secret: '105377', purpose: 'code',
      template: 'verify-phone', created_at: new Date('2026-03-01T00:00:00Z'), status: 'FAILED', failed_at: new Date('2026-03-01T00:00:01Z'),
      last_error: 'InvalidPhoneNumber', provider: 'africastalking' });
    const newer = await message({ channel: 'sms', recipient: phone, subject: null, body: 'We received GHS 450.00.', created_at: new Date('2026-03-02T00:00:00Z'),
      status: 'SENT', sent_at: new Date('2026-03-02T00:00:01Z'), provider: 'africastalking', provider_message_id: 'ATXid_1' });

    const byPhone = (await list(`/sandbox/messages?recipient=${encodeURIComponent(phone)}`)).json();
    expect(byPhone.data.map((m: { id: string }) => m.id)).toEqual([newer, older]);
    expect(byPhone.data[0]).toMatchObject({ status: 'SENT', provider: 'africastalking', providerMessageId: 'ATXid_1', lastError: null, html: null });
    expect(byPhone.data[0]).not.toHaveProperty('code');
    expect(byPhone.data[1]).toMatchObject({ code: '105377', text: 'Your code is 105377.', status: 'FAILED', lastError: 'InvalidPhoneNumber',
      failedAt: '2026-03-01T00:00:01.000Z' });
    const otherNumber = (await list(`/sandbox/messages?recipient=${encodeURIComponent(phone.replace('+233', '0'))}`)).json();
    expect(otherNumber.data).toEqual([]);
    const verify = (await list(`/sandbox/messages?recipient=${encodeURIComponent(phone)}&template=verify-phone&channel=sms`)).json();
    expect(verify.data.map((m: { id: string }) => m.id)).toEqual([older]);
    expect((await list(`/sandbox/messages?recipient=${encodeURIComponent(phone)}&channel=email`)).json().data).toEqual([]);

    const everything = (await list('/sandbox/messages?limit=500')).json().data as { createdAt: string }[];
    const times = everything.map((m) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('shows a code no more once it is forgotten, a day after its message was sent', async () => {
    const phone = `+23320${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const id = await message({ channel: 'sms', recipient: phone, subject: null, body: 'Your code is 731046.', secret: '731046', purpose: 'code',
      template: 'verify-phone', created_at: new Date(Date.now() - 2 * 86_400_000), status: 'SENT', sent_at: new Date(Date.now() - 2 * 86_400_000) });
    await forgetSentCodes(h.db, new Date());
    const [forgotten] = (await list(`/sandbox/messages?recipient=${encodeURIComponent(phone)}`)).json().data;
    expect(forgotten).toMatchObject({ id, text: `Your code is ${MASK}.`, purpose: 'code' });
    expect(forgotten).not.toHaveProperty('code');
  });

  it('shows a tenant\'s key only that tenant\'s messages', async () => {
    const { email } = await client();
    await requestReset(email);
    const other = (await list(`/sandbox/messages?recipient=${encodeURIComponent(email)}`, { apiKey: h.otherApiKey })).json();
    expect(other.data).toEqual([]);
    const foreign = await client(h.otherApiKey);
    const theirs = (await list(`/sandbox/messages?recipient=${encodeURIComponent(foreign.email)}`, { apiKey: h.otherApiKey })).json();
    expect(theirs.data.length).toBeGreaterThan(0);
    const all = (await list('/sandbox/messages?limit=500', { apiKey: h.otherApiKey })).json().data as { recipient: string }[];
    expect(all.map((m) => m.recipient)).not.toContain(email);
  });

  it('answers a production Api-Key as a path the API does not have; no key is 401', async () => {
    const live = `sk_live_${randomUUID().replace(/-/g, '')}`;
    await ensureApiKey(h.db, h.tenantId, live, 'production');
    const res = await list('/sandbox/messages', { apiKey: live });
    const unknown = await list('/sandbox/nothing-here', { apiKey: live });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Route GET /api/v1/sandbox/messages not found', error: 'Not Found', code: 'ROUTE_NOT_FOUND' });
    expect(unknown.json()).toEqual({ ...res.json(), requestId: unknown.headers['x-request-id'], message: 'Route GET /api/v1/sandbox/nothing-here not found' });
    expect((await list('/sandbox/messages', { apiKey: null })).json().code).toBe('MISSING_API_KEY');
  });

  it('is not there on a production server, whatever the key (or none)', async () => {
    const production = await createHarness({ production: true });
    try {
      for (const apiKey of [production.apiKey, null]) {
        const res = await production.call({ method: 'GET', url: '/api/v1/sandbox/messages?recipient=kofi%40example.com', apiKey });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Route GET /api/v1/sandbox/messages not found', error: 'Not Found', code: 'ROUTE_NOT_FOUND' });
      }
    } finally {
      await production.close();
    }
  });
});
