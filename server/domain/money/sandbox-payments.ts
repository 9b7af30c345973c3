import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { PaymentMethod, TransactionStatus } from '../../platform/db/schema.js';
import { checkoutExpired } from './payments.js';
import { isSandbox, type SandboxEvent } from '../../platform/payments/provider.js';
import { findPaymentByReference } from './webhooks.js';
import { API_PREFIX } from '../../platform/openapi.js';
import { TenantScope } from '../../platform/tenancy.js';

/** A sandbox payment as its pages show it. */
export interface SandboxPayment {
  reference: string;
  transactionId: string;
  transactionNo: string;
  status: TransactionStatus;
  amount: string;
  currency: string;
  mobileNumber: string | null;
  createdAt: Date;
  invoiceNo: string;
  /** The tenant's name: whom the payer pays. */
  merchant: string;
}

/**
 * The payment a sandbox reference names, paid by `method`; undefined when there is none (or the
 * server uses another provider). The reference is all the payer's browser brings: its tenant is
 * found from it, and its rows are read through that tenant's scope.
 */
export async function loadSandboxPayment(ctx: Pick<HandlerContext, 'db' | 'payments'>, method: PaymentMethod, reference: string): Promise<SandboxPayment | undefined> {
  if (!isSandbox(ctx.payments)) return undefined;
  const found = await findPaymentByReference(ctx.db, ctx.payments.name, reference);
  if (!found) return undefined;
  const scope = new TenantScope(ctx.db, found.tenantId);
  const row = await scope.selectFrom('transactions').innerJoin('invoices', 'invoices.id', 'transactions.invoice_id')
    .select(['transactions.id', 'transactions.transaction_no', 'transactions.status', 'transactions.payment_method', 'transactions.amount',
      'transactions.currency', 'transactions.mobile_number', 'transactions.created_at', 'invoices.invoice_no'])
    .where('transactions.id', '=', found.transactionId).executeTakeFirst();
  if (!row || row.payment_method !== method) return undefined;
  const merchant = await ctx.db.selectFrom('companies').select('name').where('id', '=', found.tenantId).executeTakeFirstOrThrow();
  return {
    reference, transactionId: row.id, transactionNo: row.transaction_no, status: row.status, amount: row.amount, currency: row.currency,
    mobileNumber: row.mobile_number, createdAt: new Date(row.created_at), invoiceNo: row.invoice_no, merchant: merchant.name,
  };
}

/** What the hosted checkout page shows. */
export type CheckoutState = 'open' | 'expired' | 'paid' | 'failed' | 'cancelled';
/** What the stand-in phone shows. */
export type PromptState = 'open' | 'approved' | 'failed';

/** Where a checkout stands: open until settled or 30 minutes old (then it expires unfinished). */
export function checkoutState(payment: SandboxPayment, now: Date): CheckoutState {
  switch (payment.status) {
    case 'PENDING_PAYMENT': return checkoutExpired(payment.createdAt, now) ? 'expired' : 'open';
    case 'APPROVED': return 'paid';
    case 'CANCELLED': return 'cancelled';
    default: return 'failed';
  }
}

export function promptState(payment: SandboxPayment): PromptState {
  return payment.status === 'PENDING_VERIFICATION' ? 'open' : payment.status === 'VERIFIED' ? 'approved' : 'failed';
}

/** A checkout as its page shows it. */
export interface SandboxCheckout { payment: SandboxPayment; state: CheckoutState }
/** A wallet prompt as the stand-in phone shows it. */
export interface SandboxPrompt { payment: SandboxPayment; state: PromptState }

/** The sandbox checkout a reference names, and where it stands; undefined when there is none. */
export async function sandboxCheckout(ctx: Pick<HandlerContext, 'clock' | 'db' | 'payments'>, reference: string): Promise<SandboxCheckout | undefined> {
  const payment = await loadSandboxPayment(ctx, 'ONLINE', reference);
  return payment && { payment, state: checkoutState(payment, ctx.clock.now()) };
}

/** The sandbox wallet prompt a reference names, and where it stands; undefined when there is none. */
export async function sandboxPrompt(ctx: Pick<HandlerContext, 'db' | 'payments'>, reference: string): Promise<SandboxPrompt | undefined> {
  const payment = await loadSandboxPayment(ctx, 'MOBILE_MONEY', reference);
  return payment && { payment, state: promptState(payment) };
}

const CHECKOUT_EVENTS: Record<components['schemas']['SandboxCheckoutAnswer']['outcome'], SandboxEvent['type']> = {
  pay: 'checkout.completed',
  fail: 'checkout.failed',
  cancel: 'checkout.cancelled',
};

/**
 * A button of the checkout page: while the checkout is open, the provider's signed event goes to
 * the webhook (which settles the payment). The payment, or undefined when there is none.
 */
export async function answerCheckout(ctx: Pick<HandlerContext, 'clock' | 'db' | 'deliverWebhook' | 'payments'>, reference: string,
  answer: components['schemas']['SandboxCheckoutAnswer']): Promise<SandboxPayment | undefined> {
  const checkout = await sandboxCheckout(ctx, reference);
  if (checkout?.state === 'open') await sendSandboxEvent(ctx, checkout.payment, CHECKOUT_EVENTS[answer.outcome]);
  return checkout?.payment;
}

/** The sandbox's test numbers: a wallet whose number ends in these digits always fails. */
export const FAILING_NUMBER_SUFFIX = '0000';

/**
 * The wallet holder's answer: approved from a number not ending in 0000 pays; anything else fails.
 * While the prompt is open, the provider's signed event goes to the webhook. The payment, or
 * undefined when there is none.
 */
export async function answerPrompt(ctx: Pick<HandlerContext, 'clock' | 'db' | 'deliverWebhook' | 'payments'>, reference: string,
  answer: components['schemas']['SandboxMobileMoneyAnswer']): Promise<SandboxPayment | undefined> {
  const prompt = await sandboxPrompt(ctx, reference);
  if (prompt?.state === 'open') {
    const pays = answer.outcome === 'approve' && !(prompt.payment.mobileNumber ?? '').endsWith(FAILING_NUMBER_SUFFIX);
    await sendSandboxEvent(ctx, prompt.payment, pays ? 'mobile_money.completed' : 'mobile_money.failed');
  }
  return prompt?.payment;
}

export const checkoutPath = (reference: string) => `${API_PREFIX}/sandbox/checkout/${reference}`;
export const promptPath = (reference: string) => `${API_PREFIX}/sandbox/mobile-money/${reference}`;

/**
 * What the sandbox provider does once the payer has answered: makes the event, signs it with the
 * webhook secret and posts it to this API's webhook, as a real provider would from its side.
 */
export async function sendSandboxEvent(ctx: Pick<HandlerContext, 'clock' | 'deliverWebhook' | 'payments'>, payment: SandboxPayment, type: SandboxEvent['type']) {
  if (!isSandbox(ctx.payments)) throw new Error('the sandbox pages need the sandbox payment provider');
  const now = ctx.clock.now();
  const event: SandboxEvent = {
    id: `evt_${randomBytes(12).toString('hex')}`,
    type,
    created: Math.floor(now.getTime() / 1000),
    data: { reference: payment.reference, transactionId: payment.transactionId, amount: Number(payment.amount), currency: payment.currency },
  };
  const body = JSON.stringify(event);
  return ctx.deliverWebhook(ctx.payments.name, { headers: { 'content-type': 'application/json', ...ctx.payments.signWebhook(body, now) }, body });
}
