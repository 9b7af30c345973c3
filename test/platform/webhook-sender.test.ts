import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  checkEndpointUrl, isPublicAddress, newWebhookSecret, resolvePublicAddress, sendWebhook, signatureHeaders, type WebhookAttempt,
} from '../../server/platform/webhooks/index.js';
import { closedPort } from '../helpers/messages.js';

/**
 * The webhook sender against a real receiver on 127.0.0.1 (node:http) that verifies each delivery
 * with the Standard Webhooks library as an integrator would. Public addresses cannot be reached
 * here (no internet), so their acceptance is tested at the policy level only.
 */

const OLD_SECRET = newWebhookSecret();
const NEW_SECRET = newWebhookSecret();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Which of the receiver's secrets verified the delivery. */
  verifiedBy: string[];
}
const received: Received[] = [];

/** The integrator's side: verify with the library, with each secret it knows. */
function verifiedBy(body: string, headers: IncomingHttpHeaders): string[] {
  return [OLD_SECRET, NEW_SECRET].filter((secret) => {
    try {
      new Webhook(secret).verify(body, headers as Record<string, string>);
      return true;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return false;
    }
  });
}

/** The slow route's pending answers, cleared when the suite ends. */
const pendingAnswers = new Set<NodeJS.Timeout>();

const routes: Record<string, (response: ServerResponse) => void> = {
  '/ok': (response) => response.writeHead(204).end(),
  '/fail': (response) => response.writeHead(500, { 'content-type': 'text/plain' }).end('database unavailable'),
  '/long': (response) => response.writeHead(200).end('x'.repeat(256 * 1024)),
  // 3-byte characters: the 1024-byte limit falls inside one.
  '/euros': (response) => response.writeHead(200).end('€'.repeat(1000)),
  '/slow': (response) => { pendingAnswers.add(setTimeout(() => response.writeHead(200).end('too late'), 3_000)); },
  '/stalled-body': (response) => { response.writeHead(200); response.write('accepted, then'); },
  '/redirect': (response) => response.writeHead(302, { location: `${base}/target` }).end(),
  '/target': (response) => response.writeHead(200).end(),
};

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '';
    const verified = verifiedBy(body, request.headers);
    received.push({ path, headers: request.headers, body, verifiedBy: verified });
    response.on('error', () => undefined); // the sender hangs up after its excerpt
    if (verified.length === 0) return response.writeHead(401).end('signature not verified');
    (routes[path] ?? ((answer: ServerResponse) => answer.writeHead(404).end()))(response);
  });
});

let port: number;
let base: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  pendingAnswers.forEach(clearTimeout);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => { received.length = 0; });

const body = JSON.stringify({ type: 'policy.issued', data: { policyId: 'pol_123', premium: '120.50' } });

/** A delivery to the local receiver, signed with `secrets`, private network allowed (the sandbox). */
function send(url: string, overrides: Partial<Parameters<typeof sendWebhook>[0]> = {}): Promise<WebhookAttempt> {
  return sendWebhook({
    url, id: 'msg_2mK9dQ7', timestamp: new Date(), body, secrets: [NEW_SECRET], allowPrivateNetwork: true, ...overrides,
  });
}

describe('signing', () => {
  test('a new secret is whsec_ and 32 random bytes in base64, accepted by the library', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    expect(() => new Webhook(secret)).not.toThrow();
  });

  test('one v1 signature per secret, the timestamp in whole seconds, each as the library signs', () => {
    const timestamp = new Date('2026-03-01T10:00:00.750Z');
    const headers = signatureHeaders({ id: 'msg_1', timestamp, body, secrets: [OLD_SECRET, NEW_SECRET] });
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Date.parse('2026-03-01T10:00:00Z') / 1000));
    expect(headers['webhook-signature'].split(' ')).toEqual([
      new Webhook(OLD_SECRET).sign('msg_1', timestamp, body),
      new Webhook(NEW_SECRET).sign('msg_1', timestamp, body),
    ]);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });

  test('no secret, no signature', () => {
    expect(() => signatureHeaders({ id: 'msg_1', timestamp: new Date(), body, secrets: [] })).toThrow('at least one secret');
  });
});

describe('sendWebhook to a receiver', () => {
  test('a 2xx is ok; the receiver verifies the delivery and sees the headers and body as sent', async () => {
    const attempt = await send(`${base}/ok`);
    expect(attempt).toMatchObject({ ok: true, statusCode: 204, responseExcerpt: '', error: null, retryable: false });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery.body).toBe(body);
    expect(delivery.verifiedBy).toEqual([NEW_SECRET]);
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'Coverline-Webhooks/1.0', 'webhook-id': 'msg_2mK9dQ7',
    });
  });

  test('while a secret is rotated, both sign: the old and the new secret each verify', async () => {
    expect(await send(`${base}/ok`, { secrets: [OLD_SECRET, NEW_SECRET] })).toMatchObject({ ok: true });
    expect(received[0].verifiedBy).toEqual([OLD_SECRET, NEW_SECRET]);
    expect(received[0].headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });

  test('a signature by another secret is not verified', async () => {
    const attempt = await send(`${base}/ok`, { secrets: [newWebhookSecret()] });
    expect(attempt).toMatchObject({ ok: false, statusCode: 401, responseExcerpt: 'signature not verified', retryable: true });
    expect(received[0].verifiedBy).toEqual([]);
  });

  test('a 500 is not ok, retryable, with the answer excerpt', async () => {
    expect(await send(`${base}/fail`)).toMatchObject({
      ok: false, statusCode: 500, responseExcerpt: 'database unavailable', error: 'the endpoint answered 500', retryable: true,
    });
  });

  test('a long answer is cut to maxResponseBytes (1 KB by default)', async () => {
    const attempt = await send(`${base}/long`);
    expect(attempt).toMatchObject({ ok: true, statusCode: 200 });
    expect(attempt.responseExcerpt).toBe('x'.repeat(1024));
    expect((await send(`${base}/long`, { maxResponseBytes: 10 })).responseExcerpt).toBe('x'.repeat(10));
  });

  test('a character cut by the limit is left out of the excerpt', async () => {
    expect((await send(`${base}/euros`)).responseExcerpt).toBe('€'.repeat(341));
  });

  test('a receiver slower than timeoutMs: timed out, retryable', async () => {
    const attempt = await send(`${base}/slow`, { timeoutMs: 300 });
    expect(attempt).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null, error: 'timed out after 300 ms', retryable: true });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt.durationMs).toBeLessThan(2_000);
  });

  test('a 2xx whose body stalls is ok, with what arrived before the deadline', async () => {
    const attempt = await send(`${base}/stalled-body`, { timeoutMs: 500 });
    expect(attempt).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'accepted, then', error: null });
    expect(attempt.durationMs).toBeLessThan(2_000);
  });

  test('a 302 is not followed: a retryable failure, and the target receives nothing', async () => {
    const attempt = await send(`${base}/redirect`);
    expect(attempt).toMatchObject({
      ok: false, statusCode: 302, error: `redirects are not followed (302 to ${base}/target)`, retryable: true,
    });
    expect(received.map((delivery) => delivery.path)).toEqual(['/redirect']);
  });

  test('a refused connection is an attempt, not a throw', async () => {
    const attempt = await send(`http://127.0.0.1:${await closedPort()}/ok`);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null, error: 'the connection was refused', retryable: true });
  });

  test('a host name is resolved through the checked lookup (private allowed in the sandbox)', async () => {
    expect(await send(`http://localhost:${port}/ok`)).toMatchObject({ ok: true, statusCode: 204 });
  });
});

describe('sendWebhook outside the sandbox (allowPrivateNetwork: false)', () => {
  const outside = { allowPrivateNetwork: false };

  // PORT is the receiver's: each URL would reach it if the policy let it through.
  test.each([
    ['http://127.0.0.1:PORT/ok', 'refused: only https URLs are allowed'],
    ['http://example.com/hooks', 'refused: only https URLs are allowed'],
    ['https://127.0.0.1:PORT/ok', 'refused: 127.0.0.1 is not a public address'],
    // Refused by the connection's lookup, before any TLS: localhost is a name, not a literal.
    ['https://localhost:PORT/ok', 'refused: localhost resolves to 127.0.0.1, which is not a public address'],
    ['ftp://example.com/hooks', 'refused: only http and https URLs are allowed, not ftp:'],
  ])('%s is refused, retryable, and nothing is sent', async (url, error) => {
    const attempt = await send(url.replace('PORT', String(port)), outside);
    expect(attempt).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null, error, retryable: true });
    expect(received).toEqual([]);
  });
});

describe('address policy', () => {
  const outside = { allowPrivateNetwork: false };
  const sandbox = { allowPrivateNetwork: true };

  test.each([
    ['not a url', 'not a valid URL'],
    ['ftp://example.com/hooks', 'only http and https URLs are allowed, not ftp:'],
    ['https://user:pass@example.com/hooks', 'credentials in the URL are not allowed'],
    ['http://example.com/hooks', 'only https URLs are allowed'],
    ['https://10.0.0.1/hooks', '10.0.0.1 is not a public address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is not a public address'],
    ['https://[::1]/hooks', '::1 is not a public address'],
    ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1 is not a public address'],
    ['https://0x7f.1/hooks', '127.0.0.1 is not a public address'],
    ['https://2130706433/hooks', '127.0.0.1 is not a public address'],
    ['https://93.184.216.34/hooks', undefined],
    ['https://[2606:2800:220:1:248:1893:25c8:1946]/hooks', undefined],
    ['https://hooks.example.com/coverline', undefined],
  ])('outside the sandbox, %s: %p', (url, reason) => {
    expect(checkEndpointUrl(url, outside)).toBe(reason);
  });

  test.each([
    ['http://127.0.0.1:8080/hooks', undefined],
    ['http://localhost/hooks', undefined],
    ['https://10.0.0.1/hooks', undefined],
    ['ftp://example.com/hooks', 'only http and https URLs are allowed, not ftp:'],
    ['http://user:pass@localhost/hooks', 'credentials in the URL are not allowed'],
    ['not a url', 'not a valid URL'],
  ])('in the sandbox, %s: %p', (url, reason) => {
    expect(checkEndpointUrl(url, sandbox)).toBe(reason);
  });

  test.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:93.184.216.34', true],
    ['10.0.0.1', false], // private
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false], // loopback
    ['169.254.169.254', false], // link-local: cloud metadata
    ['0.0.0.0', false], // unspecified
    ['100.64.0.1', false], // carrier-grade NAT
    ['224.0.0.1', false], // multicast
    ['255.255.255.255', false], // broadcast
    ['240.0.0.1', false], // reserved
    ['192.0.2.1', false], // documentation
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false], // unique-local
    ['fd00:ec2::254', false], // the cloud metadata service over IPv6
    ['ff02::1', false],
    ['2001:db8::1', false], // documentation
    ['::ffff:127.0.0.1', false], // IPv4-mapped
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['2002:a00:1::', false], // 6to4 of 10.0.0.1
    ['not an address', false],
    ['', false],
  ])('isPublicAddress(%p) is %p', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  test('a name resolving to a non-public address is refused, naming the address; allowed in the sandbox', async () => {
    await expect(resolvePublicAddress('localhost', outside)).rejects.toThrow('localhost resolves to 127.0.0.1, which is not a public address');
    expect((await resolvePublicAddress('localhost', sandbox)).map((entry) => entry.address)).toContain('127.0.0.1');
  });
});
