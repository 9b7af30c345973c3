import type { Handler } from '../../server/platform/handler-types.js';
import { mobileMoneyPage, notFoundPage } from './pages.js';
import { sandboxPrompt } from '../../server/domain/money/sandbox-payments.js';

/** The sandbox's stand-in phone: the prompt while the payment awaits verification, else its result. */
export const getSandboxMobileMoneyPrompt: Handler<'getSandboxMobileMoneyPrompt'> = async (ctx, req) => {
  const prompt = await sandboxPrompt(ctx, req.params.reference);
  if (!prompt) throw notFoundPage('Prompt');
  return mobileMoneyPage(prompt);
};
