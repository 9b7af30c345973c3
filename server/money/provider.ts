import type { Config } from '../config.js';

/** A payment being started with a provider. */
export interface PaymentStart { transactionId: string; transactionNo: string; amount: string; currency: string; mobileNumber?: string | null }

/**
 * A payment provider: hosted card checkout and mobile money prompts. The server ships a sandbox
 * one (like a payments API's test mode); a real provider (card acquirer, MTN MoMo, Telecel Cash)
 * implements the same two calls and confirms payments through the signed webhook.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Opens a hosted checkout for an ONLINE payment: where to send the payer, and the provider's reference. */
  startCheckout(payment: PaymentStart): Promise<{ reference: string; checkoutUrl: string }>;
  /** Sends a payment prompt to a mobile money wallet. */
  requestMobileMoney(payment: PaymentStart & { mobileNumber: string }): Promise<{ reference: string }>;
}

/**
 * The sandbox provider: its checkout page is served by this API (`/api/v1/sandbox/checkout/...`)
 * and its references are the payment ids, so nothing leaves the machine.
 */
export function sandboxProvider(config: Pick<Config, 'publicBaseUrl'>): PaymentProvider {
  return {
    name: 'sandbox',
    async startCheckout(payment) {
      const reference = `sbx_chk_${payment.transactionId}`;
      return { reference, checkoutUrl: `${config.publicBaseUrl}/api/v1/sandbox/checkout/${reference}` };
    },
    async requestMobileMoney(payment) {
      return { reference: `sbx_momo_${payment.transactionId}` };
    },
  };
}
