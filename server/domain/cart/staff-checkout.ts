import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { clientToSellTo, recordedAs, sellerOf } from '../policies/staff-sales.js';
import { buyCart, type CartCheckout } from './checkout.js';

/** Buys the cart of a client within the caller's reach (or some of its items), sold by the caller. */
export async function checkOutForClient(ctx: HandlerContext, actor: StaffActor, clientId: string, itemIds: string[] | undefined): Promise<CartCheckout> {
  await clientToSellTo(ctx.scope, actor, clientId);
  return buyCart(ctx, clientId, itemIds, recordedAs(actor), sellerOf(actor, actor.staffId));
}
