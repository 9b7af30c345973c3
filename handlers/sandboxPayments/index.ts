import { answerSandboxCheckout } from './answerSandboxCheckout.js';
import { answerSandboxMobileMoneyPrompt } from './answerSandboxMobileMoneyPrompt.js';
import { getSandboxCheckout } from './getSandboxCheckout.js';
import { getSandboxMobileMoneyPrompt } from './getSandboxMobileMoneyPrompt.js';

export const sandboxPaymentHandlers = { getSandboxCheckout, answerSandboxCheckout, getSandboxMobileMoneyPrompt, answerSandboxMobileMoneyPrompt };
