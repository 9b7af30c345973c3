import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';

/** Removes one of the client's notifications. */
export const deleteNotification: Handler<'deleteNotification'> = async (ctx, req) => {
  const deleted = await ctx.scope.deleteFrom('notifications')
    .where('id', '=', req.params.notificationId).where('client_id', '=', clientId(ctx)).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound('Notification');
  return { message: 'Notification deleted' };
};
