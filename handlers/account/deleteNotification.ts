import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { removeNotification } from '../../server/domain/clients/inbox.js';

/** Removes one of the client's notifications. */
export const deleteNotification: Handler<'deleteNotification'> = async (ctx, req) => {
  await removeNotification(ctx.scope, clientId(ctx), req.params.notificationId);
  return { message: 'Notification deleted' };
};
