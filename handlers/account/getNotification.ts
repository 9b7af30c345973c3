import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { clientInbox, ownNotification } from '../../server/domain/accounts/inbox.js';

/** One of the client's notifications; anyone else's is not found. */
export const getNotification: Handler<'getNotification'> = async (ctx, req) =>
  ({ data: await ownNotification(ctx.scope, clientInbox(clientId(ctx)), req.params.notificationId) });
