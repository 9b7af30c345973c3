import type { Selectable } from 'kysely';
import type { components, operations } from '../../../generated/api.js';
import type { OutboxTable } from '../../platform/db/schema.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { MASKED_CODE } from '../../platform/messages/retention.js';
import type { TenantScope } from '../../platform/tenancy.js';
import type { AccountOwner } from './account.js';

/**
 * The e-mails and SMS the API sent (outbox rows) as they are shown back: to their owner, a client
 * or a staff member (`Message`: every one-time code masked), and in the sandbox mailbox
 * (`SandboxMessage`: everything, the code included). The one place a row becomes an answer and a
 * code is masked.
 */

export type Message = components['schemas']['Message'];
export type SandboxMessage = components['schemas']['SandboxMessage'];

type OutboxRow = Selectable<OutboxTable>;
// Clients and staff list their messages with the same query parameters (the contract's shared ones).
type OwnMessagesQuery = NonNullable<operations['listAccountMessages']['parameters']['query']>;
type SandboxQuery = NonNullable<operations['listSandboxMessages']['parameters']['query']>;

/** `text` with every occurrence of `secret` masked; unchanged when the message carries no code. */
export function maskSecret<T extends string | null>(text: T, secret: string | null): T {
  if (text === null || !secret) return text;
  return text.split(secret).join(MASKED_CODE) as T;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/** The sender as recorded, or null for rows queued before senders were (their `sender` is `{}`). */
function senderOf(row: OutboxRow): Message['sender'] {
  const { name, replyTo, smsSenderId } = row.sender ?? {};
  if (!name) return null;
  return { name, ...(replyTo ? { replyTo } : {}), ...(smsSenderId ? { smsSenderId } : {}) };
}

/** The subject as sent: an SMS has none, whatever the row kept. */
const subjectOf = (row: OutboxRow) => (row.channel === 'sms' ? null : row.subject);

/** What both views share: the message, its sender and its delivery state. */
function common(row: OutboxRow) {
  return {
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    template: row.template,
    purpose: row.purpose,
    sender: senderOf(row),
    status: row.status,
    attempts: row.attempts,
    createdAt: iso(row.created_at)!,
    sentAt: iso(row.sent_at),
    failedAt: iso(row.failed_at),
    nextAttemptAt: iso(row.next_attempt_at),
  };
}

/** A row as its owner sees it: the code masked in subject and text, no HTML, no provider details. */
export function toMessage(row: OutboxRow): Message {
  return { ...common(row), subject: maskSecret(subjectOf(row), row.secret), text: maskSecret(row.body, row.secret) };
}

/** A row as the sandbox mailbox shows it: everything as sent, the code in `code` (absent when none). */
export function toSandboxMessage(row: OutboxRow): SandboxMessage {
  return {
    ...common(row),
    subject: subjectOf(row),
    text: row.body,
    html: row.html,
    ...(row.secret ? { code: row.secret } : {}),
    provider: row.provider,
    providerMessageId: row.provider_message_id,
    lastError: row.last_error,
  };
}

/** One page of the messages sent to one account (`kind`'s owner column names it), newest first, codes masked. */
export async function ownMessagePage(scope: TenantScope, kind: AccountOwner, id: string, query: OwnMessagesQuery) {
  const { channel, status } = query;
  const mine = scope.selectFrom('outbox').where(kind.owner, '=', id)
    .$if(channel !== undefined, (qb) => qb.where('channel', '=', channel!))
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!));
  // The contract gives page and limit defaults, which request validation fills in.
  const { rows, paginator } = await newestFirstPage(mine, mine.selectAll(), 'outbox', { page: query.page!, limit: query.limit!, after: query.after });
  return { data: rows.map(toMessage), paginator };
}

/**
 * One page of the tenant's sandbox mailbox, newest first, nothing masked: to one recipient (an
 * e-mail address in any case, a phone number exactly), of one channel or template when asked.
 */
export async function sandboxMessagePage(scope: TenantScope, query: SandboxQuery) {
  const { recipient, channel, template } = query;
  const email = recipient?.includes('@') ?? false;
  const matching = scope.selectFrom('outbox')
    .$if(recipient !== undefined && email, (qb) => qb.where((eb) => eb(eb.fn<string>('lower', ['outbox.recipient']), '=', recipient!.toLowerCase())))
    .$if(recipient !== undefined && !email, (qb) => qb.where('recipient', '=', recipient!))
    .$if(channel !== undefined, (qb) => qb.where('channel', '=', channel!))
    .$if(template !== undefined, (qb) => qb.where('template', '=', template!));
  const { rows, paginator } = await newestFirstPage(matching, matching.selectAll(), 'outbox', { page: query.page!, limit: query.limit!, after: query.after });
  return { data: rows.map(toSandboxMessage), paginator };
}
