import { auditEventPage } from '../../server/domain/read-models/audit-events.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of the company's audit trail, newest first, filtered as asked. */
export const listAuditEvents: Handler<'listAuditEvents'> = async (ctx, req) =>
  auditEventPage(ctx.scope, pageOrCursor(req.query, req.sentQuery));
