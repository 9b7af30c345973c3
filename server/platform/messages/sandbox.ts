import type { MessageTransports } from './transport.js';

/** The sandbox's transports: the outbox row is the sandbox mailbox, so sending only answers an id. */
export function sandboxTransports(log?: (line: string) => void): MessageTransports {
  return {
    email: { name: 'sandbox', async sendEmail(message) { log?.(`[messages] email to ${message.to}: ${message.subject}`); return { provider: 'sandbox', providerMessageId: `sbx_msg_${message.id}` }; } },
    sms: { name: 'sandbox', async sendSms(message) { log?.(`[messages] sms to ${message.to}`); return { provider: 'sandbox', providerMessageId: `sbx_msg_${message.id}` }; } },
  };
}
