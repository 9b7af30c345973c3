import type { MessagesConfig } from '../config.js';
import { disabledTransports, sandboxTransports } from './sandbox.js';
import { smtpTransport } from './smtp.js';
import { africasTalkingProvider } from './sms/africas-talking.js';
import type { MessageTransports } from './transport.js';

/**
 * The transports the configuration names, per channel: SMTP for e-mail when SMTP_URL is set,
 * Africa's Talking for SMS when SMS_PROVIDER is, the sandbox's for a channel left unset (outside
 * production only: production's configuration has both or is disabled), and refusals for both when
 * MESSAGES_DISABLED=true. The caller closes `email` (pooled SMTP connections) when it stops.
 */
export function messageTransports(config: MessagesConfig, log?: (line: string) => void): MessageTransports {
  if (config.mode === 'disabled') return disabledTransports();
  const sandbox = sandboxTransports(log);
  return {
    email: config.smtpUrl ? smtpTransport({ url: config.smtpUrl, fromAddress: config.mailFrom }) : sandbox.email,
    sms: config.sms ? africasTalkingProvider(config.sms) : sandbox.sms,
  };
}
