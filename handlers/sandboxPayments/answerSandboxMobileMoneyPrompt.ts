import type { Handler } from '../../server/platform/handler-types.js';
import { notFoundPage } from './pages.js';
import { answerPrompt, promptPath } from '../../server/domain/money/sandbox-payments.js';

/** The wallet holder's answer: approved or declined, then back to the prompt page, which shows the result. */
export const answerSandboxMobileMoneyPrompt: Handler<'answerSandboxMobileMoneyPrompt'> = async (ctx, req) => {
  const payment = await answerPrompt(ctx, req.params.reference, req.body);
  if (!payment) throw notFoundPage('Prompt');
  return { kind: 'redirect', location: promptPath(payment.reference) };
};
