import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** What a forgotten code reads as, in the message and wherever it is shown back. */
export const MASKED_CODE = '••••••';

/** How long a sent message keeps its one-time code readable (the sandbox mailbox shows it); codes expire long before. */
export const KEEP_CODES_MS = 24 * 3600_000;

/**
 * Masks the one-time codes of messages older than `keepMs` in the outbox (subject, text, HTML)
 * and drops them: an expired code is of no use to anyone, and a table of them is of use to an
 * intruder. Answers how many messages were masked.
 */
export async function forgetSentCodes(db: Db, now: Date, keepMs = KEEP_CODES_MS): Promise<number> {
  const masked = await db.updateTable('outbox')
    .set({
      subject: sql`replace(subject, secret, ${MASKED_CODE})`,
      body: sql`replace(body, secret, ${MASKED_CODE})`,
      html: sql`replace(html, secret, ${MASKED_CODE})`,
      secret: null,
    })
    .where('secret', 'is not', null)
    .where('created_at', '<', new Date(now.getTime() - keepMs))
    .where('status', 'in', ['SENT', 'FAILED'])
    .executeTakeFirst();
  return Number(masked.numUpdatedRows);
}
