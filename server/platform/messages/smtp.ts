import type nodemailer from 'nodemailer';
import type { NodemailerError } from 'nodemailer';
import { loadWhenUsed } from '../memory.js';
import { failureText } from './failure.js';
import { DeliveryFailure, type EmailMessage, type MailTransport } from './transport.js';

export interface SmtpTransportOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465`. */
  url: string;
  /** The deployment's bare from-address; the company's name goes before it. */
  fromAddress: string;
  /** How long to wait for the TCP (and TLS) connection, the server's greeting, and a silent socket. */
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

/** nodemailer, loaded when an SMTP transport is made (a deployment without SMTP_URL never loads it). */
const mailerPackage = loadWhenUsed<typeof nodemailer>('nodemailer');

/** The part of an address after its last `@`. */
export function addressDomain(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1 || at === address.length - 1) throw new Error(`not an e-mail address: ${address}`);
  return address.slice(at + 1);
}

/**
 * E-mail through an SMTP server (nodemailer, pooled connections). The Message-ID is made from the
 * outbox row's id and the from-address's domain, so every try of one message carries the same id
 * and the provider id answered is known before the server takes it.
 */
export function smtpTransport(options: SmtpTransportOptions): MailTransport {
  const domain = addressDomain(options.fromAddress);
  const secrets = password(options.url);
  const mailer = mailerPackage().createTransport({
    url: options.url,
    pool: true,
    connectionTimeout: options.connectionTimeoutMs ?? 20_000,
    greetingTimeout: options.greetingTimeoutMs ?? 20_000,
    socketTimeout: options.socketTimeoutMs ?? 30_000,
  });
  return {
    name: 'smtp',
    async sendEmail(message: EmailMessage) {
      try {
        const info = await mailer.sendMail({
          messageId: `<${message.id}@${domain}>`,
          // An address object: nodemailer quotes and encodes the name, whatever a company calls itself.
          from: { name: message.fromName, address: options.fromAddress },
          to: message.to,
          replyTo: message.replyTo,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
        });
        return { provider: 'smtp', providerMessageId: info.messageId };
      } catch (error) {
        throw smtpFailure(error, secrets);
      }
    },
    close() { mailer.close(); },
  };
}

/**
 * What a failed send means for the next try. A reply from the server decides by its class (RFC
 * 5321): 5xx refuses the message for good (550 no such mailbox, 535 bad credentials, 552 too
 * big), except 503 (commands out of order: a new connection can do better); 4xx asks to come back
 * later (451, 421 busy). No reply at all (refused, timed out, reset, DNS) is the network's doing
 * and worth another try; so is anything unknown, which the job's attempt limit still bounds. An
 * envelope nodemailer itself refuses (no valid recipient address) would be refused again.
 */
export function smtpFailure(error: unknown, secrets: string[] = []): DeliveryFailure {
  const failure = (error ?? {}) as NodemailerError;
  const code = failure.responseCode;
  let text: string;
  let permanent: boolean;
  if (typeof code === 'number' && code >= 200) {
    const reply = (failure.response ?? failure.message ?? '').replace(/^\d{3}[ -]?/, '').trim();
    text = `SMTP ${code}: ${reply}`;
    permanent = code >= 500 && code < 600 && code !== 503;
  } else {
    const kind = failure.originalCode ?? failure.code;
    text = `SMTP ${kind ? `${kind}: ` : ''}${failure.message ?? String(error)}`;
    permanent = failure.code === 'EENVELOPE';
  }
  return new DeliveryFailure(failureText(text, secrets), permanent);
}

/** The password in an SMTP URL (as written and decoded), so no failure text repeats it. */
function password(url: string): string[] {
  try {
    const { password: secret } = new URL(url);
    return secret ? [secret, decodeURIComponent(secret)] : [];
  } catch {
    return [];
  }
}
