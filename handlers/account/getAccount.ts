import { sql } from 'kysely';
import { clientId } from '../../server/platform/actor.js';
import { deliveryAddressColumns, toDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';
import { policySummaries, toPolicySummary } from '../../server/domain/policies/view.js';
import type { Handler } from '../types.js';
import { toClientAccount } from '../../server/domain/clients/account.js';
import { toNotification } from '../../server/domain/clients/notification-view.js';

/** The client's profile with its delivery addresses, its newest notifications and its newest policies. */
export const getAccount: Handler<'getAccount'> = async (ctx) => {
  const id = clientId(ctx);
  const [client, addresses, notifications, unread, policies, policyCount] = await Promise.all([
    ctx.scope.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    ctx.scope.selectFrom('delivery_addresses').select(deliveryAddressColumns).where('client_id', '=', id)
      .orderBy(sql`case when type = 'PRIMARY' then 0 else 1 end`).orderBy('created_at', 'desc').execute(),
    ctx.scope.selectFrom('notifications').selectAll().where('client_id', '=', id)
      .orderBy('created_at', 'desc').orderBy('id').limit(10).execute(),
    ctx.scope.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('client_id', '=', id).where('status', '=', 'unread').executeTakeFirstOrThrow(),
    policySummaries(ctx.scope, id).orderBy('policies.created_at', 'desc').orderBy('policies.id', 'desc').limit(10).execute(),
    ctx.scope.selectFrom('policies').select((eb) => eb.fn.countAll<string>().as('n')).where('client_id', '=', id).executeTakeFirstOrThrow(),
  ]);
  return {
    data: {
      ...toClientAccount(client, ctx.clock.now()),
      deliveryAddresses: addresses.map(toDeliveryAddress),
      notifications: notifications.map(toNotification),
      unreadNotifications: Number(unread.n),
      policies: policies.map(toPolicySummary),
      policiesCount: Number(policyCount.n),
    },
  };
};
