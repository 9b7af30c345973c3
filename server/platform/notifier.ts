import type { TransactionScope } from './tenancy.js';

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  subject?: string;
  body: string;
}

/**
 * Sends email and SMS through the outbox: a message is a row written in the scope's transaction,
 * so it leaves only if the change that caused it commits. A dispatcher delivers rows later.
 */
export interface Notifier {
  send(scope: TransactionScope, message: OutgoingMessage): Promise<void>;
}

export const outboxNotifier: Notifier = {
  async send(scope, message) {
    await scope.insertInto('outbox', {
      channel: message.channel,
      recipient: message.recipient,
      template: message.template,
      subject: message.subject ?? null,
      body: message.body,
    }).execute();
  },
};

/** Delivers outbox rows; the sandbox transport only logs. */
export interface MessageTransport {
  deliver(message: OutgoingMessage & { id: string; tenantId: string }): Promise<void>;
}
