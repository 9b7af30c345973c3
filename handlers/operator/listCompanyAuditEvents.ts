import { companyAuditEventPage } from '../../server/domain/read-models/audit-events.js';
import { pageOrCursor } from '../../server/platform/export/listing.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** One page of a company's audit trail, as its executive managers read it. */
export const listCompanyAuditEvents: Handler<'listCompanyAuditEvents'> = async (ctx, req) =>
  companyAuditEventPage(ctx.db, req.params.companyId, pageOrCursor(req.query, req.sentQuery));
