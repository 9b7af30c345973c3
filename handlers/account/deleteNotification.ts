import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { clientInbox, removeNotification } from '../../server/domain/accounts/inbox.js';

/** Removes one of the client's notifications. */
export const deleteNotification: Handler<'deleteNotification'> = async (ctx, req) => {
  await removeNotification(ctx.scope, clientInbox(clientId(ctx)), req.params.notificationId);
  return { message: 'Notification deleted' };
};
