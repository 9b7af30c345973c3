import { notFound } from '../../server/errors.js';
import { clientId } from '../auth/session.js';
import type { Handler } from '../types.js';
import { toNotification } from './notification.js';

/** One of the client's notifications; anyone else's is not found. */
export const getNotification: Handler<'getNotification'> = async (ctx, req) => {
  const row = await ctx.scope.selectFrom('notifications').selectAll()
    .where('id', '=', req.params.notificationId).where('client_id', '=', clientId(ctx)).executeTakeFirst();
  if (!row) throw notFound('Notification');
  return { data: toNotification(row) };
};
