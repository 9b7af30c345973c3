import type { Handler } from '../types.js';
import { mobileMoneyPage, notFoundPage } from './pages.js';
import { loadSandboxPayment, promptPath, promptState } from '../../server/domain/money/sandbox-payments.js';

/** The sandbox's stand-in phone: the prompt while the payment awaits verification, else its result. */
export const getSandboxMobileMoneyPrompt: Handler<'getSandboxMobileMoneyPrompt'> = async (ctx, req) => {
  const payment = await loadSandboxPayment(ctx, 'MOBILE_MONEY', req.params.reference);
  if (!payment) throw notFoundPage('Prompt');
  return mobileMoneyPage(payment, promptState(payment), promptPath(payment.reference));
};
