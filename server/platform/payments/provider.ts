import type { Config } from '../config.js';
import { badRequest } from '../errors.js';
import { API_PREFIX } from '../openapi.js';
import { signatureHeader, verifySignatureHeader } from './signature.js';

/** A payment being started with a provider. */
export interface PaymentStart { transactionId: string; transactionNo: string; amount: string; currency: string; mobileNumber?: string | null }

/** What a provider's event means for a payment; `null` for events that settle none. */
export type EventOutcome = 'succeeded' | 'failed' | 'cancelled' | null;

/** A provider's webhook event, in the server's terms. */
export interface ProviderEvent {
  /** The provider's id of the event: a retry carries the same one. */
  id: string;
  /** The provider's own name for the event (`checkout.completed`). */
  type: string;
  outcome: EventOutcome;
  /** The provider's reference of the payment, as `startCheckout` / `requestMobileMoney` answered it. */
  reference: string;
  /** The amount the provider took or tried to take, as a decimal string, and its currency. */
  amount: string;
  currency: string;
}

export type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * A payment provider: hosted card checkout, mobile money prompts, and the signed webhook through
 * which it reports what became of them. The server ships a sandbox one (like a payments API's test
 * mode); a real provider (card acquirer, MTN MoMo, Telecel Cash) implements the same calls with its
 * own API, signature scheme and event format, and receives its events at
 * `/webhooks/payments/<name>`.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Opens a hosted checkout for an ONLINE payment: where to send the payer, and the provider's reference. */
  startCheckout(payment: PaymentStart): Promise<{ reference: string; checkoutUrl: string }>;
  /** Sends a payment prompt to a mobile money wallet; the sandbox also says where its stand-in phone is. */
  requestMobileMoney(payment: PaymentStart & { mobileNumber: string }): Promise<{ reference: string; promptUrl?: string }>;
  /**
   * Checks that a webhook request comes from the provider, from its headers and the body's exact
   * bytes, at `now`; throws a 401 `ApiError` saying why not.
   */
  verifyWebhook(headers: RequestHeaders, rawBody: Buffer, now: Date): void;
  /** A verified webhook body (already checked against the contract's schema) as an event. */
  parseEvent(body: unknown): ProviderEvent;
}

/** The sandbox provider's event body (`PaymentWebhookEvent` in the contract). */
export interface SandboxEvent {
  id: string;
  type: 'checkout.completed' | 'checkout.failed' | 'checkout.cancelled' | 'mobile_money.completed' | 'mobile_money.failed';
  created: number;
  data: { reference: string; transactionId?: string; amount: number; currency: string };
}

/** The sandbox provider: all of the above, plus signing its own webhooks, which a real provider does on its side. */
export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** The signature header a webhook body sent at `at` carries. */
  signWebhook(rawBody: string, at: Date): Record<string, string>;
}

export const SANDBOX_CHECKOUT_PREFIX = 'sbx_chk_';
export const SANDBOX_MOBILE_MONEY_PREFIX = 'sbx_momo_';
export const SIGNATURE_HEADER = 'coverline-signature';

const OUTCOMES: Record<SandboxEvent['type'], EventOutcome> = {
  'checkout.completed': 'succeeded',
  'checkout.failed': 'failed',
  'checkout.cancelled': 'cancelled',
  'mobile_money.completed': 'succeeded',
  'mobile_money.failed': 'failed',
};

/**
 * The sandbox provider: its checkout page and mobile money prompt are pages of this API
 * (`/api/v1/sandbox/...`), its references are the payment ids, and its webhooks are signed with
 * `PAYMENT_WEBHOOK_SECRET` exactly as a real provider signs its own, so nothing leaves the machine
 * and the webhook path is the one production uses.
 */
export function sandboxProvider(config: Pick<Config, 'publicBaseUrl' | 'paymentWebhookSecret'>): SandboxProvider {
  const pages = `${config.publicBaseUrl}${API_PREFIX}/sandbox`;
  return {
    name: 'sandbox',
    async startCheckout(payment) {
      const reference = `${SANDBOX_CHECKOUT_PREFIX}${payment.transactionId}`;
      return { reference, checkoutUrl: `${pages}/checkout/${reference}` };
    },
    async requestMobileMoney(payment) {
      const reference = `${SANDBOX_MOBILE_MONEY_PREFIX}${payment.transactionId}`;
      return { reference, promptUrl: `${pages}/mobile-money/${reference}` };
    },
    verifyWebhook(headers, rawBody, now) {
      verifySignatureHeader(config.paymentWebhookSecret, headers[SIGNATURE_HEADER], rawBody, now);
    },
    parseEvent(body) {
      const event = body as SandboxEvent;
      const outcome = OUTCOMES[event.type];
      if (outcome === undefined) throw badRequest(`body.type ${event.type} is not a sandbox event type`);
      return {
        id: event.id, type: event.type, outcome, reference: event.data.reference,
        amount: String(event.data.amount), currency: event.data.currency,
      };
    },
    signWebhook(rawBody, at) {
      return { [SIGNATURE_HEADER]: signatureHeader(config.paymentWebhookSecret, rawBody, at) };
    },
  };
}

export const isSandbox = (provider: PaymentProvider): provider is SandboxProvider =>
  provider.name === 'sandbox' && typeof (provider as SandboxProvider).signWebhook === 'function';
