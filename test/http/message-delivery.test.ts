import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { FORGET_SENT_CODES_QUEUE, jobHandlers } from '../../server/app/jobs.js';
import { createWorker } from '../../server/platform/jobs/worker.js';
import { smtpTransport } from '../../server/platform/messages/smtp.js';
import { africasTalkingProvider } from '../../server/platform/messages/sms/africas-talking.js';
import { DELIVER_MESSAGE_QUEUE } from '../../server/platform/notifier.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';
import { sandboxDepartment, staffSession } from '../helpers/staff.js';

/**
 * Messages leave for real here: an SMTP server (smtp-server, nodemailer's authors') and a local
 * HTTP server answering as Africa's Talking's SMS API does, both on 127.0.0.1. The API writes the
 * outbox; the job worker's message queue delivers it.
 */

interface Arrived { mail: ParsedMail; envelopeTo: string[] }
const mailbox: Arrived[] = [];
/** What the SMTP server answers the next DATA commands with (a code and text), instead of taking them. */
const smtpRefusals: { code: number; text: string }[] = [];
let smtp: SMTPServer;
let smtpPort: number;

interface SmsRequest { path: string; apiKey: string | undefined; form: URLSearchParams }
const smsSent: SmsRequest[] = [];
let smsApi: Server;

let h: Harness;

async function body(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = smtpRefusals.shift();
        if (refusal) {
          callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
          return;
        }
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          mailbox.push({ mail, envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  smsApi = createServer(async (req, res) => {
    const form = new URLSearchParams(await body(req));
    smsSent.push({ path: req.url ?? '', apiKey: req.headers.apikey as string | undefined, form });
    // Numbers in E.164 are taken, except the +23399 range, which no network serves here.
    const valid = /^\+\d{10,15}$/.test(form.get('to') ?? '') && !form.get('to')!.startsWith('+23399');
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ SMSMessageData: {
      Message: valid ? 'Sent to 1/1 Total Cost: GHS 0.0300' : 'Sent to 0/1 Total Cost: 0',
      Recipients: [valid
        ? { statusCode: 101, number: form.get('to'), status: 'Success', cost: 'GHS 0.0300', messageId: `ATXid_${smsSent.length}` }
        : { statusCode: 403, number: form.get('to'), status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' }],
    } }));
  });
  await new Promise<void>((resolve) => smsApi.listen(0, '127.0.0.1', resolve));
  const smsPort = (smsApi.address() as AddressInfo).port;

  h = await createHarness({}, {
    messages: {
      email: smtpTransport({ url: `smtp://127.0.0.1:${smtpPort}`, fromAddress: 'no-reply@coverline.test' }),
      sms: africasTalkingProvider({ username: 'coverline', apiKey: 'at-test-key', baseUrl: `http://127.0.0.1:${smsPort}` }),
    },
  });
});

afterAll(async () => {
  await h.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => smsApi.close(() => resolve()));
});

/** A worker of the app's own message queue, as `npm start` runs it. */
const worker = (id = 'test-worker') => createWorker({
  db: h.db, clock: h.clock, workerId: id, intervalMs: 60_000, batchSize: 50,
  handlers: { [DELIVER_MESSAGE_QUEUE]: jobHandlers(h.app.services)[DELIVER_MESSAGE_QUEUE] },
});

/** Runs the worker until no message job is ready. */
async function deliverAll(w = worker()) {
  while (await w.tick() > 0) { /* next batch */ }
}

/** The List-Unsubscribe header as sent, unfolded. */
const unsubscribeHeader = (mail: ParsedMail) => mail.headerLines.find((line) => line.key === 'list-unsubscribe')?.line.replace(/\s+/g, ' ');
const mailTo = (address: string) => mailbox.filter((m) => m.envelopeTo.includes(address));
const outboxTo = (recipient: string) => h.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at').execute();

describe('requestPasswordReset by e-mail over SMTP', () => {
  it('delivers the reset code as a branded e-mail whose code completes resetPassword', async () => {
    const { body } = await signUp(h);
    const email = body.email as string;
    await deliverAll();
    expect(mailTo(email).map((m) => m.mail.subject)).toEqual(['Welcome to Coverline Sandbox Brokers']);

    const request = await h.call({ method: 'POST', url: '/api/v1/auth/password/request-reset', payload: { username: email } });
    expect(request.statusCode).toBe(200);
    await deliverAll();
    const [, reset] = mailTo(email);
    expect(reset.mail.subject).toBe('Your Coverline Sandbox Brokers password reset code');
    expect(reset.mail.from?.value).toEqual([{ name: 'Coverline Sandbox Brokers', address: 'no-reply@coverline.test' }]);
    expect(reset.mail.replyTo?.value).toEqual([{ name: '', address: 'sandbox@coverline.example' }]);
    // A code is no notice: nothing to unsubscribe from.
    expect(unsubscribeHeader(reset.mail)).toBeUndefined();
    expect(reset.mail.html).toContain('#0B5FFF');
    const code = /reset code is (\d{6})/.exec(reset.mail.text ?? '')![1];
    expect(reset.mail.html).toContain(`>${code}</span>`);

    const done = await h.call({ method: 'POST', url: '/api/v1/auth/password/reset', payload: { username: email, resetCode: code, password: 'Brand-New-Pass-9', passwordConfirm: 'Brand-New-Pass-9' } });
    expect(done.statusCode).toBe(200);
    const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: email, password: 'Brand-New-Pass-9' } });
    expect(login.statusCode).toBe(200);

    const rows = await outboxTo(email);
    expect(rows.slice(0, 2).map((r) => [r.template, r.status, r.provider, r.attempts])).toEqual([
      ['welcome', 'SENT', 'smtp', 1], ['password-reset-code', 'SENT', 'smtp', 1],
    ]);
    expect(rows[1].provider_message_id).toBe(reset.mail.messageId && `<${reset.mail.messageId.replace(/^<|>$/g, '')}>`);
    const me = await h.call({ method: 'GET', url: '/api/v1/client/account', token: login.json().data.accessToken });
    expect(rows[1].client_id).toBe(me.json().data.id);
  });

  it('sends notices with List-Unsubscribe and escapes a hostile name in the HTML', async () => {
    const hostile = individualBody({ firstName: '<script>alert(1)</script>', lastName: '"Mensah" & <b>Sons</b>' });
    const { body } = await signUp(h, hostile);
    await deliverAll();
    const [welcome] = mailTo(body.email as string);
    expect(unsubscribeHeader(welcome.mail)).toBe('List-Unsubscribe: <mailto:sandbox@coverline.example?subject=Unsubscribe%20from%20notices>');
    expect(welcome.mail.html).not.toContain('<script>');
    expect(welcome.mail.html).not.toContain('<b>Sons</b>');
    expect(welcome.mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // Plain text is not HTML: the name reads as typed.
    expect(welcome.mail.text).toContain('<script>alert(1)</script>');
  });
});

describe('SMTP failures', () => {
  it('retries a temporary refusal (451) with backoff and delivers; a permanent one (550) fails at once, not retried', async () => {
    const { body } = await signUp(h);
    const email = body.email as string;
    smtpRefusals.push({ code: 451, text: '4.3.0 Try again later' });
    await deliverAll();
    let [row] = await outboxTo(email);
    expect(row).toMatchObject({ status: 'RETRYING', attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/451/);
    expect(row.next_attempt_at!.getTime()).toBeGreaterThan(h.clock.now().getTime());
    expect(mailTo(email)).toHaveLength(0);

    await deliverAll(); // not due yet: nothing is tried
    expect((await outboxTo(email))[0].attempts).toBe(1);
    h.clock.advance(31_000);
    await deliverAll();
    [row] = await outboxTo(email);
    expect(row).toMatchObject({ status: 'SENT', attempts: 2, provider: 'smtp' });
    expect(mailTo(email)).toHaveLength(1);

    const second = await signUp(h);
    smtpRefusals.push({ code: 550, text: '5.1.1 Mailbox unavailable' });
    await deliverAll();
    h.clock.advance(3_600_000);
    await deliverAll();
    const [failed] = await outboxTo(second.body.email as string);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1, next_attempt_at: null });
    expect(failed.last_error).toMatch(/550/);
    expect(failed.failed_at).toBeInstanceOf(Date);
    const job = await h.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', `message:${failed.id}`).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 1, done_at: null });
    expect(job.failed_at).toBeInstanceOf(Date);
  });
});

describe('createStaffMember set-up code by SMS', () => {
  it('sends the code with the company sender id through the SMS API, and it completes the first sign-in', async () => {
    const exec = await staffSession(h, 'exec');
    const phone = `+2332${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    const email = `new.agent.${Date.now()}@sandbox.coverline.example`;
    const created = await h.call({ method: 'POST', url: '/api/v1/staff/members', token: exec.token, payload: {
      email, phoneNumber: phone, firstName: 'Ama', lastName: 'Owusu', type: 'AGENT', position: 'LEVEL_OFFICER',
      departmentId: sandboxDepartment('Retail Sales').id,
    } });
    expect(created.statusCode).toBe(201);
    await deliverAll();
    const sms = smsSent.filter((s) => s.form.get('to') === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0].path).toBe('/version1/messaging');
    expect(sms[0].apiKey).toBe('at-test-key');
    expect(sms[0].form.get('username')).toBe('coverline');
    expect(sms[0].form.get('from')).toBe('COVERLINE');
    const text = sms[0].form.get('message')!;
    expect(text.length).toBeLessThanOrEqual(160);
    const code = /code is (\d{6})/.exec(text)![1];
    // The same code went by e-mail too.
    expect(mailTo(email)[0].mail.text).toContain(code);

    const reset = await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/reset', payload: { username: email, resetCode: code, password: 'First-Sign-In-7', passwordConfirm: 'First-Sign-In-7' } });
    expect(reset.statusCode).toBe(200);
    const login = await h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username: email, password: 'First-Sign-In-7' } });
    expect(login.statusCode).toBe(200);
    const [row] = (await outboxTo(phone));
    expect(row).toMatchObject({ channel: 'sms', status: 'SENT', provider: 'africastalking', provider_message_id: expect.stringMatching(/^ATXid_/) });
    expect(row.staff_id).toBe(created.json().data.id);
  });

  it('sends to a local number in the company country\'s international form', async () => {
    const local = `024${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const { body } = await signUp(h, individualBody({ email: undefined, phoneNumber: local }));
    expect(body.phoneNumber).toBe(local);
    await deliverAll();
    const sms = smsSent.filter((s) => s.form.get('to') === `+233${local.slice(1)}`);
    expect(sms.map((s) => s.form.get('message'))).toEqual([expect.stringContaining('your Coverline Sandbox Brokers account is ready')]);
    expect((await outboxTo(local))[0]).toMatchObject({ status: 'SENT', provider: 'africastalking' });
  });

  it('marks a number the provider calls invalid FAILED, not retried', async () => {
    const { body } = await signUp(h, individualBody({ email: undefined, phoneNumber: `+23399${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` }));
    await deliverAll();
    const [row] = await outboxTo(body.phoneNumber as string);
    expect(row).toMatchObject({ channel: 'sms', status: 'FAILED', attempts: 1 });
    expect(row.last_error).toMatch(/InvalidPhoneNumber/);
  });
});

describe('message delivery across instances', () => {
  it('sends each message once when two workers dispatch at the same time', async () => {
    const emails: string[] = [];
    for (let i = 0; i < 12; i += 1) emails.push((await signUp(h)).body.email as string);
    const before = mailbox.length;
    await Promise.all([deliverAll(worker('instance-a')), deliverAll(worker('instance-b'))]);
    const arrived = mailbox.slice(before).flatMap((m) => m.envelopeTo);
    for (const email of emails) expect(arrived.filter((to) => to === email)).toHaveLength(1);
    const rows = await h.db.selectFrom('outbox').select(['status', 'attempts']).where('recipient', 'in', emails).execute();
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1)).toBe(true);
  });
});

describe('sent codes forgotten after a day', () => {
  it('masks a delivered code in the stored message once it is a day old, and leaves notices as they were', async () => {
    const { body } = await signUp(h);
    const email = body.email as string;
    await h.call({ method: 'POST', url: '/api/v1/auth/password/request-reset', payload: { username: email } });
    await deliverAll();
    const forget = jobHandlers(h.app.services)[FORGET_SENT_CODES_QUEUE];
    const job = {} as Parameters<typeof forget>[0];
    await forget(job, h.clock.now());
    let [welcome, reset] = await outboxTo(email);
    const code = reset.secret!;
    expect(reset.body).toContain(code);

    await forget(job, new Date(h.clock.now().getTime() + 25 * 3600_000));
    [welcome, reset] = await outboxTo(email);
    expect(reset.secret).toBeNull();
    expect(reset.body).toContain('reset code is ••••••.');
    expect(reset.html).not.toContain(code);
    expect(welcome.body).toContain('account is ready');
  });
});
