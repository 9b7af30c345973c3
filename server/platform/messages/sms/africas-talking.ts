/**
 * SMS through Africa's Talking's bulk SMS API. Why this provider: the seed's market is Ghana (GHS
 * prices, GHANA_CARD and NHIS identity documents), and Africa's Talking serves Ghana, Kenya,
 * Nigeria, Uganda, Tanzania, Rwanda and more through one HTTP API, with the alphanumeric sender
 * ids (a company's `smsSenderId`) the region's networks expect. Another provider plugs in behind
 * the same `SmsProvider` interface.
 *
 * The call (their "Send SMS" documentation): POST {base}/version1/messaging, a form
 * (`application/x-www-form-urlencoded`) of `username`, `to` (comma-separated numbers; one here),
 * `message` and the optional `from` (sender id or short code; the account's default without it),
 * with the `apiKey` header. The answer:
 * `{"SMSMessageData":{"Message":"Sent to 1/1 Total Cost: ...","Recipients":[{"statusCode":101,
 * "number":"+233...","status":"Success","cost":"...","messageId":"ATXid_..."}]}}`; each
 * recipient's `statusCode` says what became of it (see RECIPIENT_STATUS).
 */
import { failureText } from '../failure.js';
import { DeliveryFailure, type SmsMessage, type SmsProvider } from '../transport.js';

export const AFRICAS_TALKING_LIVE_URL = 'https://api.africastalking.com';
export const AFRICAS_TALKING_SANDBOX_URL = 'https://api.sandbox.africastalking.com';

/** Africa's Talking's sandbox app answers the username `sandbox` (its simulator, no real phone). */
export function africasTalkingBaseUrl(username: string): string {
  return username === 'sandbox' ? AFRICAS_TALKING_SANDBOX_URL : AFRICAS_TALKING_LIVE_URL;
}

export interface AfricasTalkingOptions {
  username: string;
  apiKey: string;
  /** The live API unless the username is `sandbox`. */
  baseUrl?: string;
  /** Node's global fetch unless given. */
  fetch?: typeof fetch;
  /** How long one call may take, answer included. */
  timeoutMs?: number;
}

/**
 * What each per-recipient `statusCode` means and whether trying again could help. 100-102 took the
 * message. The account's own states pass with time (405 a balance topped up) and the provider's
 * faults (500, 501 a gateway down) are temporary. The rest refuse this message to this number and
 * would refuse it again: the number (403, 404, 406 blacklisted, 407 no route), the sender id (402),
 * fraud screening (401), a network that turned the message down (502, as against 501's gateway
 * that failed), and 409, Nigeria's Do-Not-Disturb window for promotional sender ids, whose answer
 * a code or notice would only get hours later, past its use: such a company needs a transactional
 * sender id.
 */
const RECIPIENT_STATUS: Record<number, { name: string; outcome: 'sent' | 'temporary' | 'permanent' }> = {
  100: { name: 'Processed', outcome: 'sent' },
  101: { name: 'Sent', outcome: 'sent' },
  102: { name: 'Queued', outcome: 'sent' },
  401: { name: 'RiskHold', outcome: 'permanent' },
  402: { name: 'InvalidSenderId', outcome: 'permanent' },
  403: { name: 'InvalidPhoneNumber', outcome: 'permanent' },
  404: { name: 'UnsupportedNumberType', outcome: 'permanent' },
  405: { name: 'InsufficientBalance', outcome: 'temporary' },
  406: { name: 'UserInBlacklist', outcome: 'permanent' },
  407: { name: 'CouldNotRoute', outcome: 'permanent' },
  409: { name: 'DoNotDisturbRejection', outcome: 'permanent' },
  500: { name: 'InternalServerError', outcome: 'temporary' },
  501: { name: 'GatewayError', outcome: 'temporary' },
  502: { name: 'RejectedByGateway', outcome: 'permanent' },
};

interface Recipient { statusCode?: number | string; status?: string; number?: string; messageId?: string }

export function africasTalkingProvider(options: AfricasTalkingOptions): SmsProvider {
  const endpoint = `${(options.baseUrl ?? africasTalkingBaseUrl(options.username)).replace(/\/+$/, '')}/version1/messaging`;
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const secrets = [options.apiKey];
  return {
    name: 'africastalking',
    async sendSms(message: SmsMessage) {
      const form = new URLSearchParams({ username: options.username, to: message.to, message: message.text });
      if (message.from) form.set('from', message.from);
      let status: number;
      let body: string;
      try {
        const response = await send(endpoint, {
          method: 'POST',
          headers: { apiKey: options.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        body = await response.text();
      } catch (error) {
        throw new DeliveryFailure(failureText(`Africa's Talking: ${networkFailure(error, timeoutMs)}`, secrets), false);
      }
      const data = parse(body);
      const recipient = data?.Recipients?.find((one) => one.number === message.to) ?? data?.Recipients?.[0];
      // A recipient's status decides even on a non-2xx answer (409 comes with one).
      if (recipient) {
        const code = Number(recipient.statusCode);
        const known = RECIPIENT_STATUS[code];
        if (known?.outcome === 'sent') return { provider: 'africastalking', providerMessageId: String(recipient.messageId ?? '') };
        const text = `Africa's Talking ${code || '?'} ${recipient.status ?? known?.name ?? 'unknown status'}`;
        // An unknown status code is retried: the job's attempt limit bounds it.
        throw new DeliveryFailure(failureText(text, secrets), known?.outcome === 'permanent');
      }
      if (status < 200 || status >= 300) throw new DeliveryFailure(failureText(`Africa's Talking HTTP ${status}: ${body}`, secrets), permanentHttpStatus(status));
      // 2xx with no recipient: the request as a whole was turned down, its reason in Message
      // (`InvalidSenderId`, ...). The same request would be turned down again, unless the reason
      // is one of the passing ones.
      const reason = data?.Message || body || 'no recipient in the answer';
      const passing = Object.values(RECIPIENT_STATUS).some((one) => one.outcome === 'temporary' && reason.includes(one.name));
      throw new DeliveryFailure(failureText(`Africa's Talking: ${reason}`, secrets), !passing);
    },
  };
}

/**
 * An HTTP error without a recipient: 400 (a malformed request), 401 and 403 (a wrong username or
 * API key, an IP not allowed) will not mend on their own, and retrying them until the attempts run
 * out only repeats the refusal (and a provider may lock out a key that keeps failing), so they
 * fail at once, visible on the outbox row, until the deployment's settings are fixed. 408 and 429
 * (slow down) and every 5xx pass with time.
 */
function permanentHttpStatus(status: number): boolean {
  if (status === 408 || status === 429) return false;
  return status >= 400 && status < 500;
}

function parse(body: string): { Message?: string; Recipients?: Recipient[] } | undefined {
  try {
    const data = (JSON.parse(body) as { SMSMessageData?: { Message?: string; Recipients?: Recipient[] } }).SMSMessageData;
    return data && typeof data === 'object' ? { Message: data.Message, Recipients: Array.isArray(data.Recipients) ? data.Recipients : undefined } : undefined;
  } catch {
    return undefined;
  }
}

/** Read by shape, not `instanceof`: fetch's errors may come from another realm (a test VM). */
function networkFailure(error: unknown, timeoutMs: number): string {
  const failure = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const reason = failure.cause?.code ?? failure.cause?.message;
  return `${failure.message ?? String(error)}${reason ? ` (${reason})` : ''}`;
}
