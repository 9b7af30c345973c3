import type { Handler } from '../../server/platform/handler-types.js';
import { settlementAuthority, toSettlementAuthorityView } from '../../server/domain/staff/settlement-authority.js';

/** The company's claim settlement limits by position and its four-eyes threshold, each beside its default. */
export const getSettlementLimits: Handler<'getSettlementLimits'> = async (ctx) =>
  ({ data: toSettlementAuthorityView(await settlementAuthority(ctx.scope)) });
