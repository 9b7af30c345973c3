import type { Db } from './db/database.js';
import { TenantScope } from './tenancy.js';

/** How long business events are kept (`GET /staff/events` promises 30 days). */
export const KEEP_EVENTS_MS = 30 * 24 * 3600_000;
/** Rows deleted per statement: each delete is short, so no run holds its locks for long. */
export const PRUNE_EVENTS_BATCH = 5_000;

/**
 * Deletes the business events older than `keepMs` at `now`, every company's, a batch at a time
 * (their webhook deliveries and attempts go with them: on delete cascade). Company by company, so
 * each batch is a range of the `(tenant_id, created_at ...)` index rather than a scan of the
 * table. Answers how many events were deleted.
 */
export async function pruneEvents(db: Db, now: Date, { keepMs = KEEP_EVENTS_MS, batch = PRUNE_EVENTS_BATCH } = {}): Promise<number> {
  const cutoff = new Date(now.getTime() - keepMs);
  const companies = await db.selectFrom('companies').select('id').execute();
  let total = 0;
  for (const { id: tenantId } of companies) {
    const scope = new TenantScope(db, tenantId);
    for (;;) {
      const old = scope.selectFrom('domain_events').select('domain_events.id').where('domain_events.created_at', '<', cutoff).limit(batch);
      const gone = await scope.deleteFrom('domain_events').where('domain_events.id', 'in', old).executeTakeFirst();
      const count = Number(gone.numDeletedRows);
      total += count;
      if (count < batch) break;
    }
  }
  return total;
}
