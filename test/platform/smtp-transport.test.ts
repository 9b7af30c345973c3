import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { smtpTransport } from '../../server/platform/messages/smtp.js';
import type { EmailMessage, MailTransport } from '../../server/platform/messages/transport.js';
import { closedPort, deliveryFailure as failure } from '../helpers/messages.js';

/**
 * The SMTP transport against a real SMTP server in this process (smtp-server, plain text on
 * 127.0.0.1, AUTH allowed without TLS): what arrives, and how each kind of refusal is classified.
 */

const PASSWORD = 'p@ss word-secret';
const received: ParsedMail[] = [];
const logins: Array<{ username?: string; password?: string }> = [];

/** The recipient's local part picks the server's answer to RCPT TO. */
function refusal(address: string): Error | null {
  const local = address.split('@')[0];
  const reply = { busy: [451, '4.3.0 try again later'], gone: [550, '5.1.1 mailbox unavailable'] }[local];
  return reply ? Object.assign(new Error(reply[1] as string), { responseCode: reply[0] }) : null;
}

const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth(auth, _session, callback) {
    logins.push({ username: auth.username, password: auth.password ?? undefined });
    if (auth.password !== PASSWORD) return callback(Object.assign(new Error(`5.7.8 bad password ${auth.password}`), { responseCode: 535 }));
    callback(null, { user: auth.username });
  },
  onRcptTo(address, _session, callback) {
    callback(refusal(address.address));
  },
  onData(stream, _session, callback) {
    simpleParser(stream).then((mail) => { received.push(mail); callback(); }, callback);
  },
});

let port: number;
let transport: MailTransport;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  port = (server.server.address() as AddressInfo).port;
  transport = smtpTransport({
    url: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`,
    fromAddress: 'no-reply@mail.coverline.test',
    connectionTimeoutMs: 2_000, greetingTimeoutMs: 2_000, socketTimeoutMs: 5_000,
  });
});

afterAll(async () => {
  transport.close?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function email(overrides: Partial<EmailMessage> = {}): EmailMessage {
  return {
    id: '7d0c6a52-3f3e-4c55-9a0b-0d3b8f5a1e11',
    to: 'kofi@example.com',
    fromName: 'Ɛnyɛ Insurance, "Accra" Ltd.',
    replyTo: 'care@enye.example',
    subject: 'Your policy POL-0012 is active',
    text: 'Dear Kofi, your policy is active.',
    html: '<p>Dear Kofi, your policy is <b>active</b>.</p>',
    headers: { 'List-Unsubscribe': '<https://api.example/unsubscribe/abc>' },
    ...overrides,
  };
}

describe('smtp transport', () => {
  it('delivers the message with the company name over the from-address, reply-to, both bodies, its headers and a Message-ID from the outbox id', async () => {
    const message = email();
    const delivered = await transport.sendEmail(message);
    expect(delivered).toEqual({ provider: 'smtp', providerMessageId: `<${message.id}@mail.coverline.test>` });
    expect(logins).toContainEqual({ username: 'mailer', password: PASSWORD });
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.from?.value).toEqual([{ name: message.fromName, address: 'no-reply@mail.coverline.test' }]);
    expect(mail.replyTo?.value).toEqual([{ name: '', address: 'care@enye.example' }]);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value).toEqual([{ name: '', address: 'kofi@example.com' }]);
    expect(mail.subject).toBe(message.subject);
    expect(mail.text?.trim()).toBe(message.text);
    expect(mail.html).toContain('<b>active</b>');
    expect(mail.messageId).toBe(`<${message.id}@mail.coverline.test>`);
    expect(mail.headerLines.filter((header) => header.key === 'list-unsubscribe').map((header) => header.line)).toEqual(['List-Unsubscribe: <https://api.example/unsubscribe/abc>']);
  });

  it('answers a 4xx refusal as temporary, with the server\'s words', async () => {
    const failed = await failure(transport.sendEmail(email({ to: 'busy@example.com' })));
    expect(failed).toMatchObject({ permanent: false, message: 'SMTP 451: 4.3.0 try again later' });
  });

  it('answers a 5xx refusal as permanent, with the server\'s words', async () => {
    const failed = await failure(transport.sendEmail(email({ to: 'gone@example.com' })));
    expect(failed).toMatchObject({ permanent: true, message: 'SMTP 550: 5.1.1 mailbox unavailable' });
  });

  it('answers refused credentials as permanent, without repeating the password', async () => {
    const wrong = smtpTransport({ url: `smtp://mailer:wrong-secret@127.0.0.1:${port}`, fromAddress: 'no-reply@mail.coverline.test', connectionTimeoutMs: 2_000 });
    try {
      const failed = await failure(wrong.sendEmail(email()));
      expect(failed.permanent).toBe(true);
      expect(failed.message).toMatch(/^SMTP 535: /);
      expect(failed.message).not.toContain('wrong-secret');
    } finally {
      wrong.close?.();
    }
  });

  it('answers a refused connection as temporary', async () => {
    const nowhere = smtpTransport({ url: `smtp://127.0.0.1:${await closedPort()}`, fromAddress: 'no-reply@mail.coverline.test', connectionTimeoutMs: 2_000 });
    try {
      const failed = await failure(nowhere.sendEmail(email()));
      expect(failed.permanent).toBe(false);
      expect(failed.message).toContain('ECONNREFUSED');
    } finally {
      nowhere.close?.();
    }
  });

  it('answers a server that never greets as temporary, once the greeting timeout passes', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => { sockets.push(socket); });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const mute = smtpTransport({ url: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, fromAddress: 'no-reply@mail.coverline.test', greetingTimeoutMs: 200 });
    try {
      const failed = await failure(mute.sendEmail(email()));
      expect(failed.permanent).toBe(false);
      expect(failed.message).toMatch(/ETIMEDOUT/);
    } finally {
      mute.close?.();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
