import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { miniStatement } from '../../server/domain/read-models/mini-statement.js';

/** The client's position at a glance: policies, outstanding invoices, recent transactions, open claims. */
export const getMiniStatement: Handler<'getMiniStatement'> = async (ctx) => ({ data: await miniStatement(ctx, clientId(ctx)) });
