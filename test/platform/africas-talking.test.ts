import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { africasTalkingBaseUrl, africasTalkingProvider, AFRICAS_TALKING_LIVE_URL, AFRICAS_TALKING_SANDBOX_URL } from '../../server/platform/messages/sms/africas-talking.js';
import { smsSegments } from '../../server/platform/messages/sms/segments.js';
import type { SmsMessage } from '../../server/platform/messages/transport.js';
import { closedPort, deliveryFailure as failure } from '../helpers/messages.js';

/**
 * The Africa's Talking provider against a local HTTP server standing in for the API: what it
 * sends, and how each documented answer (and no answer) is classified.
 */

const API_KEY = 'atsk_test_0123456789abcdef';

interface Seen { method?: string; url?: string; headers: IncomingMessage['headers']; form: URLSearchParams }
const seen: Seen[] = [];

/** What the stand-in answers, chosen per test. */
let answer: (response: ServerResponse, form: URLSearchParams) => void;

const held: ServerResponse[] = [];
const server = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => { body += chunk; });
  request.on('end', () => {
    const form = new URLSearchParams(body);
    seen.push({ method: request.method, url: request.url, headers: request.headers, form });
    answer(response, form);
  });
});

function json(status: number, body: unknown) {
  return (response: ServerResponse) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

function recipients(...list: Array<{ statusCode: number; status: string; number: string; messageId: string; cost?: string }>) {
  const sent = list.filter((one) => one.statusCode < 200).length;
  return { SMSMessageData: { Message: `Sent to ${sent}/${list.length} Total Cost: GHS 0.0300`, Recipients: list.map((one) => ({ cost: 'GHS 0.0300', ...one })) } };
}

let baseUrl: string;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const provider = () => africasTalkingProvider({ username: 'coverline', apiKey: API_KEY, baseUrl, timeoutMs: 2_000 });

const sms: SmsMessage = { id: 'a7f1', to: '+233241234567', from: 'ENYEINSURE', text: 'Your Coverline code is 482913' };

describe("Africa's Talking SMS provider", () => {
  it('sends the form Africa\'s Talking documents, with the API key header, and answers the recipient\'s messageId', async () => {
    answer = json(201, recipients({ statusCode: 101, status: 'Success', number: sms.to, messageId: 'ATXid_5c1d0b9b2a8e4f' }));
    seen.length = 0;
    await expect(provider().sendSms(sms)).resolves.toEqual({ provider: 'africastalking', providerMessageId: 'ATXid_5c1d0b9b2a8e4f' });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/version1/messaging');
    expect(request.headers).toMatchObject({ apikey: API_KEY, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(request.form)).toEqual({ username: 'coverline', to: sms.to, message: sms.text, from: 'ENYEINSURE' });
  });

  it('leaves out `from` when the company has no sender id (the account\'s default)', async () => {
    answer = json(201, recipients({ statusCode: 100, status: 'Success', number: sms.to, messageId: 'ATXid_1' }));
    seen.length = 0;
    await expect(provider().sendSms({ ...sms, from: undefined })).resolves.toMatchObject({ providerMessageId: 'ATXid_1' });
    expect(seen[0].form.has('from')).toBe(false);
  });

  it('answers an invalid number (403 InvalidPhoneNumber) as permanent', async () => {
    answer = json(201, recipients({ statusCode: 403, status: 'InvalidPhoneNumber', number: sms.to, messageId: 'None', cost: '0' }));
    const failed = await failure(provider().sendSms(sms));
    expect(failed).toMatchObject({ permanent: true, message: "Africa's Talking 403 InvalidPhoneNumber" });
  });

  it('answers an empty balance (405 InsufficientBalance) as temporary, and a rejected sender id (402) as permanent', async () => {
    answer = json(201, recipients({ statusCode: 405, status: 'InsufficientBalance', number: sms.to, messageId: 'None', cost: '0' }));
    expect(await failure(provider().sendSms(sms))).toMatchObject({ permanent: false, message: "Africa's Talking 405 InsufficientBalance" });
    answer = json(201, recipients({ statusCode: 402, status: 'InvalidSenderId', number: sms.to, messageId: 'None', cost: '0' }));
    expect(await failure(provider().sendSms(sms))).toMatchObject({ permanent: true });
  });

  it('reads the recipient of a 409 answer (Do-Not-Disturb) as permanent', async () => {
    answer = json(409, recipients({ statusCode: 409, status: 'DoNotDisturbRejection', number: sms.to, messageId: 'None', cost: '0' }));
    expect(await failure(provider().sendSms(sms))).toMatchObject({ permanent: true, message: "Africa's Talking 409 DoNotDisturbRejection" });
  });

  it('answers HTTP 500 as temporary', async () => {
    answer = (response) => { response.writeHead(500, { 'Content-Type': 'text/plain' }); response.end('Internal Server Error'); };
    expect(await failure(provider().sendSms(sms))).toMatchObject({ permanent: false, message: "Africa's Talking HTTP 500: Internal Server Error" });
  });

  it('answers refused credentials (HTTP 401) as permanent, without repeating the API key', async () => {
    answer = (response) => { response.writeHead(401, { 'Content-Type': 'text/plain' }); response.end(`The supplied authentication is invalid (${API_KEY})`); };
    const failed = await failure(provider().sendSms(sms));
    expect(failed.permanent).toBe(true);
    expect(failed.message).toMatch(/^Africa's Talking HTTP 401: The supplied authentication is invalid/);
    expect(failed.message).not.toContain(API_KEY);
  });

  it('answers a request turned down as a whole (no recipient, Message InvalidSenderId) as permanent', async () => {
    answer = json(201, { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } });
    expect(await failure(provider().sendSms(sms))).toMatchObject({ permanent: true, message: "Africa's Talking: InvalidSenderId" });
  });

  it('gives up on a server that never answers once its timeout passes, as temporary', async () => {
    answer = (response) => { held.push(response); };
    const impatient = africasTalkingProvider({ username: 'coverline', apiKey: API_KEY, baseUrl, timeoutMs: 200 });
    expect(await failure(impatient.sendSms(sms))).toMatchObject({ permanent: false, message: "Africa's Talking: no answer within 200 ms" });
  });

  it('answers a refused connection as temporary', async () => {
    const nowhere = africasTalkingProvider({ username: 'coverline', apiKey: API_KEY, baseUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 2_000 });
    const failed = await failure(nowhere.sendSms(sms));
    expect(failed.permanent).toBe(false);
    expect(failed.message).toContain('ECONNREFUSED');
  });

  it('calls the sandbox API for the `sandbox` username and the live one otherwise', () => {
    expect(africasTalkingBaseUrl('sandbox')).toBe(AFRICAS_TALKING_SANDBOX_URL);
    expect(africasTalkingBaseUrl('coverline')).toBe(AFRICAS_TALKING_LIVE_URL);
  });
});

describe('SMS segments', () => {
  it('counts GSM-7 parts (160, then 153 each; extension characters twice) and UCS-2 parts (70, then 67)', () => {
    expect(smsSegments('a'.repeat(160))).toBe(1);
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('€'.repeat(80))).toBe(1);
    expect(smsSegments('€'.repeat(81))).toBe(2);
    expect(smsSegments('Ɛ'.repeat(70))).toBe(1);
    expect(smsSegments('Ɛ'.repeat(71))).toBe(2);
  });
});
