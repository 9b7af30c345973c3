import type { Handler } from '../types.js';
import { notFoundPage } from './pages.js';
import { loadSandboxPayment, promptPath, promptState, sendSandboxEvent } from '../../server/domain/money/sandbox-payments.js';

/** The sandbox's test numbers: a wallet whose number ends in these digits always fails. */
export const FAILING_NUMBER_SUFFIX = '0000';

/**
 * The wallet holder's answer: approved from a number not ending in 0000 pays; anything else fails.
 * The provider's signed event goes to the webhook, then back to the prompt page.
 */
export const answerSandboxMobileMoneyPrompt: Handler<'answerSandboxMobileMoneyPrompt'> = async (ctx, req) => {
  const payment = await loadSandboxPayment(ctx, 'MOBILE_MONEY', req.params.reference);
  if (!payment) throw notFoundPage('Prompt');
  if (promptState(payment) === 'open') {
    const pays = req.body.outcome === 'approve' && !(payment.mobileNumber ?? '').endsWith(FAILING_NUMBER_SUFFIX);
    await sendSandboxEvent(ctx, payment, pays ? 'mobile_money.completed' : 'mobile_money.failed');
  }
  return { kind: 'redirect', location: promptPath(payment.reference) };
};
