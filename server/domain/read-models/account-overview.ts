import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { policySummaries, toPolicySummary } from '../policies/view.js';
import { toClientAccount } from '../clients/account.js';
import { allDeliveryAddresses } from '../clients/delivery-addresses.js';
import { latestNotifications } from '../accounts/notification-view.js';

/** The client's profile with its delivery addresses, its newest notifications and its newest policies. */
export async function accountOverview(ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string): Promise<components['schemas']['ClientAccountDetails']> {
  const [client, addresses, inbox, policies, policyCount] = await Promise.all([
    ctx.scope.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirstOrThrow(),
    allDeliveryAddresses(ctx.scope, clientId),
    latestNotifications(ctx.scope, 'client_id', clientId),
    policySummaries(ctx.scope, clientId).orderBy('policies.created_at', 'desc').orderBy('policies.id', 'desc').limit(10).execute(),
    ctx.scope.selectFrom('policies').select((eb) => eb.fn.countAll<string>().as('n')).where('client_id', '=', clientId).executeTakeFirstOrThrow(),
  ]);
  return {
    ...toClientAccount(client, ctx.clock.now()),
    deliveryAddresses: addresses,
    ...inbox,
    policies: policies.map(toPolicySummary),
    policiesCount: Number(policyCount.n),
  };
}
