import type { Handler } from '../types.js';
import { checkoutPage, notFoundPage } from './pages.js';
import { checkoutPath, checkoutState, loadSandboxPayment } from '../../server/domain/money/sandbox-payments.js';

/** The sandbox hosted checkout: pay, fail or cancel while open; the result once settled. */
export const getSandboxCheckout: Handler<'getSandboxCheckout'> = async (ctx, req) => {
  const payment = await loadSandboxPayment(ctx, 'ONLINE', req.params.reference);
  if (!payment) throw notFoundPage('Checkout');
  return checkoutPage(payment, checkoutState(payment, ctx.clock.now()), checkoutPath(payment.reference));
};
