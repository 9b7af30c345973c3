import { staffActor } from '../../server/platform/actor.js';
import { commissionWorkbook } from '../../server/domain/read-models/commissions.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The same statement as `getCommissionStatement`, as an .xlsx workbook. */
export const exportCommissionStatement: Handler<'exportCommissionStatement'> = async (ctx, req) =>
  commissionWorkbook(ctx.scope, staffActor(ctx), req.query);
