import type { SandboxEvent } from '../../server/platform/payments/provider.js';
import type { Handler } from '../types.js';
import { notFoundPage } from './pages.js';
import { checkoutPath, checkoutState, loadSandboxPayment, sendSandboxEvent } from '../../server/domain/money/sandbox-payments.js';

const EVENTS: Record<'pay' | 'fail' | 'cancel', SandboxEvent['type']> = {
  pay: 'checkout.completed',
  fail: 'checkout.failed',
  cancel: 'checkout.cancelled',
};

/**
 * A button of the checkout page: while the checkout is open, the provider's signed event goes to
 * the webhook (which settles the payment); then back to the page, which shows the result.
 */
export const answerSandboxCheckout: Handler<'answerSandboxCheckout'> = async (ctx, req) => {
  const payment = await loadSandboxPayment(ctx, 'ONLINE', req.params.reference);
  if (!payment) throw notFoundPage('Checkout');
  if (checkoutState(payment, ctx.clock.now()) === 'open') await sendSandboxEvent(ctx, payment, EVENTS[req.body.outcome]);
  return { kind: 'redirect', location: checkoutPath(payment.reference) };
};
