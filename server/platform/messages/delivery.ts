import type { Db } from '../db/database.js';
import { backoffMs, FinalFailure, type Job } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/worker.js';
import { internationalNumber } from './phone.js';
import { unsubscribeLink } from './render.js';
import { DeliveryFailure, type Delivered, type MessageTransports } from './transport.js';

/**
 * Delivers one outbox row: the job of the `messages.deliver` queue that the notifier enqueued with
 * it. The queue claims each job once across instances (SKIP LOCKED, with a lease), so a message is
 * sent once however many workers run; the row keeps its delivery state: SENT with the provider's
 * id, RETRYING with the reason and the next try (temporary failures, retried with the queue's
 * backoff), FAILED with the reason (permanent failures at once, others after the last try).
 *
 * A worker that dies between the provider's answer and the row's update leaves the job to be taken
 * again when its lease ends: the message may then leave twice (at least once, never lost).
 */
export function messageDeliveryHandler(db: Db, transports: MessageTransports): JobHandler {
  return async (job: Job, now: Date) => {
    const messageId = String(job.payload.messageId);
    const row = await db.selectFrom('outbox').selectAll().where('id', '=', messageId).executeTakeFirst();
    // Gone (its tenant removed) or already settled by an earlier run of this job: nothing to send.
    if (!row || row.status === 'SENT' || row.status === 'FAILED') return;
    let delivered: Delivered;
    try {
      delivered = row.channel === 'email'
        ? await transports.email.sendEmail({
          id: row.id, to: row.recipient, fromName: row.sender.name ?? 'Coverline', replyTo: row.sender.replyTo,
          subject: row.subject ?? '', text: row.body, html: row.html ?? undefined,
          headers: row.purpose === 'notice' && row.sender.replyTo ? { 'List-Unsubscribe': `<${unsubscribeLink(row.sender.replyTo)}>` } : undefined,
        })
        : await transports.sms.sendSms({ id: row.id, to: internationalNumber(row.recipient, row.sender.country), from: row.sender.smsSenderId, text: row.body });
    } catch (error) {
      const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure(error instanceof Error ? error.message : String(error), false);
      const last = failure.permanent || job.attempts >= job.max_attempts;
      await db.updateTable('outbox').set({
        status: last ? 'FAILED' : 'RETRYING', attempts: job.attempts, last_error: failure.message.slice(0, 1000), updated_at: now,
        next_attempt_at: last ? null : new Date(now.getTime() + backoffMs(job.attempts)), failed_at: last ? now : null,
      }).where('id', '=', row.id).execute();
      throw last ? new FinalFailure(failure.message) : failure;
    }
    await db.updateTable('outbox').set({
      status: 'SENT', attempts: job.attempts, provider: delivered.provider, provider_message_id: delivered.providerMessageId,
      sent_at: now, next_attempt_at: null, updated_at: now,
    }).where('id', '=', row.id).execute();
  };
}
