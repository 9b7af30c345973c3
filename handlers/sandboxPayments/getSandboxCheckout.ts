import type { Handler } from '../../server/platform/handler-types.js';
import { checkoutPage, notFoundPage } from './pages.js';
import { sandboxCheckout } from '../../server/domain/money/sandbox-payments.js';

/** The sandbox hosted checkout: pay, fail or cancel while open; the result once settled. */
export const getSandboxCheckout: Handler<'getSandboxCheckout'> = async (ctx, req) => {
  const checkout = await sandboxCheckout(ctx, req.params.reference);
  if (!checkout) throw notFoundPage('Checkout');
  return checkoutPage(checkout);
};
