import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { accountOverview } from '../../server/domain/read-models/account-overview.js';

/** The client's profile with its delivery addresses, its newest notifications and its newest policies. */
export const getAccount: Handler<'getAccount'> = async (ctx) => ({ data: await accountOverview(ctx, clientId(ctx)) });
