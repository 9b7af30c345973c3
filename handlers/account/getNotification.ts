import { notFound } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { toNotification } from '../../server/domain/clients/notification-view.js';

/** One of the client's notifications; anyone else's is not found. */
export const getNotification: Handler<'getNotification'> = async (ctx, req) => {
  const row = await ctx.scope.selectFrom('notifications').selectAll()
    .where('id', '=', req.params.notificationId).where('client_id', '=', clientId(ctx)).executeTakeFirst();
  if (!row) throw notFound('Notification');
  return { data: toNotification(row) };
};
