import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { notificationPage } from '../../server/domain/clients/inbox.js';

/** The signed-in client's notifications, newest first, a page at a time. */
export const listNotifications: Handler<'listNotifications'> = async (ctx, req) => {
  const { notifications, paginator } = await notificationPage(ctx.scope, clientId(ctx), req.query);
  return { data: notifications, paginator };
};
