import type { Clock } from './clock.js';
import type { Db } from './db/database.js';
import { enqueue } from './jobs/queue.js';
import { renderMessage, type Brand, type MessageTemplate } from './messages/render.js';
import type { TransactionScope } from './tenancy.js';

/** The job queue that delivers outbox rows, one job per message (server/platform/messages/delivery.ts). */
export const DELIVER_MESSAGE_QUEUE = 'messages.deliver';
/** Tries per message: the queue's backoff (30 s, 1, 2, 4... min) gives up after about an hour. */
export const MESSAGE_MAX_ATTEMPTS = 8;

/** A message kind: its name (kept on the row, e.g. `password-reset-code`) and its wording. */
export interface NamedTemplate extends MessageTemplate { name: string }

export interface OutgoingMessage {
  channel: 'email' | 'sms';
  recipient: string;
  template: NamedTemplate;
  /** The template's variables (escaped where it is HTML); `code` is a code message's one-time code. */
  vars: Record<string, string>;
  /** Whose it is: the client or staff member who can read it back (codes masked). */
  owner?: { kind: 'client' | 'staff'; id: string };
}

/**
 * Sends email and SMS through the outbox: a message is rendered in the company's brand and written
 * as a row, with the job that delivers it, in the scope's transaction, so it leaves only if the
 * change that caused it commits.
 */
export interface Notifier {
  send(scope: TransactionScope, message: OutgoingMessage): Promise<void>;
}

/** The tenant's company as its messages show it. */
export async function brandOf(db: Db, tenantId: string): Promise<Brand & { country: string | null }> {
  const company = await db.selectFrom('companies')
    .select(['name', 'short_name', 'email', 'primary_color', 'logo_url', 'sms_sender_id', 'country'])
    .where('id', '=', tenantId).executeTakeFirstOrThrow();
  return { name: company.name, shortName: company.short_name, email: company.email, primaryColor: company.primary_color,
    logoUrl: company.logo_url, smsSenderId: company.sms_sender_id, country: company.country };
}

/** The notifier of the app: the outbox, its jobs timed by `clock` (stopped in tests). */
export const outboxNotifier = (clock: Clock): Notifier => ({
  async send(scope, message) {
    const brand = await brandOf(scope.db, scope.tenantId);
    const rendered = renderMessage(message.template, message.vars, brand);
    const email = message.channel === 'email';
    const row = await scope.insertInto('outbox', {
      channel: message.channel,
      recipient: message.recipient,
      template: message.template.name,
      purpose: message.template.purpose,
      subject: rendered.subject,
      body: email ? rendered.text : rendered.sms,
      html: email ? rendered.html : null,
      secret: message.vars.code ?? null,
      sender: JSON.stringify({
        name: brand.name, ...(brand.email ? { replyTo: brand.email } : {}), ...(brand.smsSenderId ? { smsSenderId: brand.smsSenderId } : {}),
        ...(brand.country ? { country: brand.country } : {}),
      }),
      client_id: message.owner?.kind === 'client' ? message.owner.id : null,
      staff_id: message.owner?.kind === 'staff' ? message.owner.id : null,
    }).returning('id').executeTakeFirstOrThrow();
    await enqueue(scope.db, { queue: DELIVER_MESSAGE_QUEUE, payload: { messageId: row.id }, dedupeKey: `message:${row.id}`, maxAttempts: MESSAGE_MAX_ATTEMPTS }, clock.now());
  },
});
