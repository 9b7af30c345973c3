import type { Handler } from '../../server/platform/handler-types.js';
import { notFoundPage } from './pages.js';
import { answerCheckout, checkoutPath } from '../../server/domain/money/sandbox-payments.js';

/** A button of the checkout page: answered, then back to the page, which shows the result. */
export const answerSandboxCheckout: Handler<'answerSandboxCheckout'> = async (ctx, req) => {
  const payment = await answerCheckout(ctx, req.params.reference, req.body);
  if (!payment) throw notFoundPage('Checkout');
  return { kind: 'redirect', location: checkoutPath(payment.reference) };
};
