import { sql } from 'kysely';
import { pageOf } from '../../server/platform/pagination.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../types.js';
import { deliveryAddressColumns, toDeliveryAddress } from '../../server/domain/clients/delivery-addresses.js';

/** One page of the signed-in client's addresses: the PRIMARY one first, then newest first. */
export const listDeliveryAddresses: Handler<'listDeliveryAddresses'> = async (ctx, req) => {
  const { type } = req.query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = req.query.page!;
  const limit = req.query.limit!;
  const filtered = ctx.scope.selectFrom('delivery_addresses')
    .where('client_id', '=', clientId(ctx))
    .$if(type !== undefined, (qb) => qb.where('type', '=', type!));

  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered
    .select(deliveryAddressColumns)
    .orderBy(sql`case when type = 'PRIMARY' then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { data: rows.map(toDeliveryAddress), paginator };
};
