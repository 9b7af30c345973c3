import { staffId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { setSettlementAuthority, toSettlementAuthorityView } from '../../server/domain/staff/settlement-authority.js';

/** An executive manager sets the company's own settlement limits and four-eyes threshold, within the defaults. */
export const setSettlementLimits: Handler<'setSettlementLimits'> = async (ctx, req) =>
  ({ data: toSettlementAuthorityView(await setSettlementAuthority(ctx.scope, staffId(ctx), req.body, ctx.clock.now())) });
