import type { Db } from './db/database.js';
import type { MessageTransport } from './notifier.js';

/**
 * Delivers pending outbox messages across tenants. Rows are claimed with SKIP LOCKED, so several
 * instances can run it at once without sending a message twice.
 */
export async function dispatchOutbox(db: Db, transport: MessageTransport, batchSize = 50): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('outbox').selectAll()
      .where('status', '=', 'QUEUED').orderBy('created_at').limit(batchSize)
      .forUpdate().skipLocked().execute();
    for (const row of rows) {
      try {
        await transport.deliver({
          id: row.id, tenantId: row.tenant_id, channel: row.channel, recipient: row.recipient,
          template: row.template, subject: row.subject ?? undefined, body: row.body,
        });
        await trx.updateTable('outbox').set({ status: 'SENT', sent_at: new Date(), attempts: row.attempts + 1 }).where('id', '=', row.id).execute();
      } catch {
        await trx.updateTable('outbox').set({ status: row.attempts + 1 >= 5 ? 'FAILED' : 'QUEUED', attempts: row.attempts + 1 })
          .where('id', '=', row.id).execute();
      }
    }
    return rows.length;
  });
}

/** The sandbox transport: writes the message to the log instead of sending it. */
export function loggingTransport(log: (line: string) => void): MessageTransport {
  return {
    async deliver(message) {
      log(`[outbox] ${message.channel} to ${message.recipient}: ${message.subject ?? message.template}`);
    },
  };
}
