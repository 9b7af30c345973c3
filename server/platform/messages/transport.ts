/**
 * The wire side of messages: an e-mail goes out through a `MailTransport` (SMTP by nodemailer, or
 * the sandbox's, which keeps it), an SMS through an `SmsProvider` (one HTTP provider built in;
 * others plug in behind the same interface). Both answer the provider's id for the message or
 * throw a `DeliveryFailure` saying whether trying again could help.
 */

export interface EmailMessage {
  /** The outbox row's id: the Message-ID's left part, so a resend is recognisable. */
  id: string;
  to: string;
  /** The company's name over the deployment's from-address. */
  fromName: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe on notices). */
  headers?: Record<string, string>;
}

export interface SmsMessage {
  id: string;
  /** E.164 where the number allows it (+233...). */
  to: string;
  /** The company's alphanumeric sender id (at most 11 characters); the provider's default when absent. */
  from?: string;
  text: string;
}

export interface Delivered {
  /** Which transport took it: `smtp`, `africastalking`, `sandbox`. */
  provider: string;
  /** The provider's id for the message (SMTP: the Message-ID). */
  providerMessageId: string;
}

/**
 * A message that did not leave. `permanent` ones (SMTP 5xx, an invalid number, a rejected sender
 * id) are not tried again; temporary ones (SMTP 4xx, HTTP 5xx, timeouts, refused connections) are
 * retried with backoff.
 */
export class DeliveryFailure extends Error {
  constructor(message: string, readonly permanent: boolean) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

export interface MailTransport {
  readonly name: string;
  sendEmail(message: EmailMessage): Promise<Delivered>;
  close?(): void;
}

export interface SmsProvider {
  readonly name: string;
  sendSms(message: SmsMessage): Promise<Delivered>;
}

export interface MessageTransports {
  email: MailTransport;
  sms: SmsProvider;
}
