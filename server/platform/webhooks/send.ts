import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import { AddressRefusedError, checkEndpointUrl, resolvePublicAddress, type AddressPolicy } from './address-policy.js';
import { signatureHeaders } from './signing.js';

/**
 * One attempt at delivering a webhook: a signed POST to the endpoint, bounded in time and in what
 * is read back, to an address the policy allows. It never throws: every outcome, failures
 * included, is a `WebhookAttempt` for the caller's delivery log and retry schedule.
 */

export interface WebhookRequest {
  url: string;
  /** The message id (`webhook-id`): the same on every attempt, so the receiver can deduplicate. */
  id: string;
  timestamp: Date;
  /** The JSON body, sent exactly as signed. */
  body: string;
  /** Every secret that signs (two while a secret is rotated). */
  secrets: string[];
  /** The whole attempt's budget: lookup, connection, request and answer. */
  timeoutMs?: number;
  /** How much of the answer's body is kept as `responseExcerpt`. */
  maxResponseBytes?: number;
  allowPrivateNetwork: boolean;
}

export interface WebhookAttempt {
  /** A 2xx answer within the time allowed. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The start of the answer's body (UTF-8), or null when there was no answer. */
  responseExcerpt: string | null;
  /** What went wrong, in plain words; null when ok. */
  error: string | null;
  /** Whether trying again later may succeed. */
  retryable: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024;
const USER_AGENT = 'Coverline-Webhooks/1.0';

/**
 * The connection's DNS lookup, checked: the socket connects only to an address that passed the
 * policy, so a name re-pointed between a check and the connection (DNS rebinding) gains nothing.
 */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    resolvePublicAddress(hostname, { ...policy, family }).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export async function sendWebhook(webhook: WebhookRequest): Promise<WebhookAttempt> {
  const started = performance.now();
  const timeoutMs = webhook.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const attempt = (outcome: Omit<WebhookAttempt, 'durationMs'>): WebhookAttempt =>
    ({ ...outcome, durationMs: Math.round(performance.now() - started) });

  // A refused URL is retryable all the same: the endpoint's URL may be corrected (or its DNS may
  // change) before the next attempt, and the caller's retry schedule decides when to give up.
  const refusal = checkEndpointUrl(webhook.url, webhook);
  if (refusal) return attempt({ ok: false, statusCode: null, responseExcerpt: null, error: `refused: ${refusal}`, retryable: true });

  let headers: Record<string, string>;
  try {
    headers = signatureHeaders(webhook);
  } catch (error) {
    // Nothing was sent; a missing or malformed secret is not fixed by waiting.
    return attempt({ ok: false, statusCode: null, responseExcerpt: null, error: `could not sign: ${messageOf(error)}`, retryable: false });
  }

  // undici is loaded by the first delivery, not at start: an instance at rest does not hold it.
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connect: { lookup: checkedLookup(webhook), timeout: timeoutMs } });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  let answer: Dispatcher.ResponseData | undefined;
  try {
    answer = await request(webhook.url, {
      method: 'POST',
      dispatcher: agent,
      signal: deadline.signal,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
      body: webhook.body,
    });
    const statusCode = answer.statusCode;
    // Once the status has arrived in time the outcome is known; reading the excerpt is bounded by
    // the same deadline and keeps whatever arrived before it.
    const responseExcerpt = await readExcerpt(answer.body, webhook.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    if (statusCode >= 200 && statusCode < 300) return attempt({ ok: true, statusCode, responseExcerpt, error: null, retryable: false });
    // Redirects are never followed (the target was not checked, and the signature was meant for
    // this URL). A 3xx is a failure retried like any other non-2xx answer, as the endpoint may
    // be corrected meanwhile.
    const error = statusCode >= 300 && statusCode < 400
      ? `redirects are not followed (${statusCode} to ${headerValue(answer.headers.location) ?? 'no location'})`
      : `the endpoint answered ${statusCode}`;
    return attempt({ ok: false, statusCode, responseExcerpt, error, retryable: true });
  } catch (error) {
    if (answer === undefined) {
      const what = deadline.signal.aborted ? `timed out after ${timeoutMs} ms` : describeFailure(error);
      return attempt({ ok: false, statusCode: null, responseExcerpt: null, error: what, retryable: true });
    }
    return attempt({ ok: false, statusCode: answer.statusCode, responseExcerpt: null, error: `the answer failed: ${describeFailure(error)}`, retryable: true });
  } finally {
    clearTimeout(timer);
    answer?.body.destroy();
    // One agent per attempt: nothing is kept alive for later.
    await agent.destroy().catch(() => undefined);
  }
}

/** At most `maxBytes` of the body, as text (a character cut at the limit is left out). */
async function readExcerpt(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= maxBytes) break;
    }
  } catch {
    // The deadline passed, or the connection dropped, mid-body: keep what arrived.
  } finally {
    body.destroy();
  }
  return new StringDecoder('utf8').write(Buffer.concat(chunks).subarray(0, maxBytes));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A connection or request failure in plain words. */
function describeFailure(error: unknown): string {
  if (error instanceof AddressRefusedError) return `refused: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name could not be resolved (${code})`;
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host could not be reached';
    default:
      return code?.startsWith('ERR_TLS') || code?.includes('CERT')
        ? `the TLS connection failed: ${messageOf(error)}`
        : messageOf(error);
  }
}
