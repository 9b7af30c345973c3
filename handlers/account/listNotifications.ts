import { pageOf } from '../../server/platform/pagination.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { toNotification } from '../../server/domain/clients/notification-view.js';

/** The signed-in client's notifications, newest first, a page at a time. */
export const listNotifications: Handler<'listNotifications'> = async (ctx, req) => {
  const { status } = req.query;
  const page = req.query.page!;
  const limit = req.query.limit!;
  const mine = ctx.scope.selectFrom('notifications').where('client_id', '=', clientId(ctx))
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!));
  const { offset, paginator } = await pageOf(mine, page, limit);
  const rows = await mine.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute();
  return { data: rows.map(toNotification), paginator };
};
