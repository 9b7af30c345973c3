import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { policySummaries, toPolicySummary } from '../policies/view.js';
import { toClientAccount } from './account.js';
import { allDeliveryAddresses } from './delivery-addresses.js';
import { toNotification } from './notification-view.js';

/** The client's profile with its delivery addresses, its newest notifications and its newest policies. */
export async function accountOverview(ctx: HandlerContext, clientId: string): Promise<components['schemas']['ClientAccountDetails']> {
  const [client, addresses, notifications, unread, policies, policyCount] = await Promise.all([
    ctx.scope.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow(),
    allDeliveryAddresses(ctx.scope, clientId),
    ctx.scope.selectFrom('notifications').selectAll().where('client_id', '=', clientId)
      .orderBy('created_at', 'desc').orderBy('id').limit(10).execute(),
    ctx.scope.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('client_id', '=', clientId).where('status', '=', 'unread').executeTakeFirstOrThrow(),
    policySummaries(ctx.scope, clientId).orderBy('policies.created_at', 'desc').orderBy('policies.id', 'desc').limit(10).execute(),
    ctx.scope.selectFrom('policies').select((eb) => eb.fn.countAll<string>().as('n')).where('client_id', '=', clientId).executeTakeFirstOrThrow(),
  ]);
  return {
    ...toClientAccount(client, ctx.clock.now()),
    deliveryAddresses: addresses,
    notifications: notifications.map(toNotification),
    unreadNotifications: Number(unread.n),
    policies: policies.map(toPolicySummary),
    policiesCount: Number(policyCount.n),
  };
}
