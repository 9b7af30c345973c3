import { DeliveryFailure, type MessageTransports } from './transport.js';
import { smsSegments } from './sms/segments.js';

/**
 * The sandbox's transports: nothing leaves. The outbox row is the sandbox's mailbox (it keeps what
 * was sent), so they only answer an id, and log one line when given a log. An SMS's text is not
 * logged: it may hold a one-time code, and a log is no place for one.
 */
export function sandboxTransports(log?: (line: string) => void): MessageTransports {
  return {
    email: {
      name: 'sandbox',
      async sendEmail(message) {
        log?.(`[messages] email to ${message.to}: ${message.subject}`);
        return { provider: 'sandbox', providerMessageId: `sbx_msg_${message.id}` };
      },
    },
    sms: {
      name: 'sandbox',
      async sendSms(message) {
        const parts = smsSegments(message.text);
        log?.(`[messages] sms to ${message.to}${message.from ? ` from ${message.from}` : ''}: ${parts} part${parts === 1 ? '' : 's'}`);
        return { provider: 'sandbox', providerMessageId: `sbx_msg_${message.id}` };
      },
    },
  };
}

/** MESSAGES_DISABLED=true: every message fails for good, saying why, and nothing is sent. */
export function disabledTransports(): MessageTransports {
  const refuse = async (): Promise<never> => { throw new DeliveryFailure('messages are disabled (MESSAGES_DISABLED=true)', true); };
  return {
    email: { name: 'disabled', sendEmail: refuse },
    sms: { name: 'disabled', sendSms: refuse },
  };
}
