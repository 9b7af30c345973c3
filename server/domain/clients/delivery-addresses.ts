import { sql, type Selectable } from 'kysely';
import type { components, operations } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { DeliveryAddressesTable } from '../../platform/db/schema.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import { conflict, notFound } from '../../platform/errors.js';
import { pageOf } from '../../platform/pagination.js';
import type { TenantScope } from '../../platform/tenancy.js';

export type DeliveryAddress = components['schemas']['DeliveryAddress'];
type DeliveryAddressQuery = NonNullable<operations['listDeliveryAddresses']['parameters']['query']>;

/** The columns the mapper reads: queries select exactly these (never tenant_id or client_id). */
export const deliveryAddressColumns = [
  'id', 'type', 'name', 'region', 'city', 'phone_number', 'address', 'created_at', 'updated_at',
] as const;
type DeliveryAddressSource = Pick<Selectable<DeliveryAddressesTable>, (typeof deliveryAddressColumns)[number]>;

/** A delivery_addresses row -> DeliveryAddress. */
export function toDeliveryAddress(row: DeliveryAddressSource): DeliveryAddress {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    region: row.region,
    city: row.city,
    phoneNumber: row.phone_number,
    address: row.address,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Serialises changes to one client's addresses: locks the client's row (`for no key update`, so
 * foreign-key checks from other tables are not blocked) until the transaction ends. Locking the
 * addresses themselves would not cover a client with none yet, where two concurrent PRIMARY
 * inserts would race to the unique index.
 */
export async function lockClientAddresses(scope: TenantScope, clientId: string) {
  await scope.selectFrom('clients').select('id').where('id', '=', clientId).forNoKeyUpdate().executeTakeFirst();
}

/** Makes the client's current PRIMARY address (other than `exceptId`) SECONDARY. */
export async function demotePrimary(scope: TenantScope, clientId: string, now: Date, exceptId?: string) {
  await scope.updateTable('delivery_addresses')
    .set({ type: 'SECONDARY', updated_at: now })
    .where('client_id', '=', clientId)
    .where('type', '=', 'PRIMARY')
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .execute();
}

/**
 * The partial unique index (one PRIMARY per client) is the last wall behind the lock: should a
 * writer that does not take the lock race us, its violation is a 409 the caller may retry.
 */
export async function guardPrimary<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'delivery_addresses_one_primary') {
      throw conflict('Another address was made PRIMARY at the same time; try again', 'PRIMARY_ADDRESS_CONFLICT');
    }
    throw error;
  }
}

/** A client's addresses; callers add their columns, filters and order. */
function clientAddresses(scope: TenantScope, clientId: string) {
  return scope.selectFrom('delivery_addresses').where('client_id', '=', clientId);
}

// Addresses are shown with the PRIMARY one first.
const primaryFirst = sql`case when type = 'PRIMARY' then 0 else 1 end`;

/** Every address of the client, PRIMARY first (the account's view). */
export async function allDeliveryAddresses(scope: TenantScope, clientId: string): Promise<DeliveryAddress[]> {
  const rows = await clientAddresses(scope, clientId).select(deliveryAddressColumns).orderBy(primaryFirst).orderBy('created_at', 'desc').execute();
  return rows.map(toDeliveryAddress);
}

/** One page of the client's addresses, of one type if asked: the PRIMARY one first, then newest first. */
export async function deliveryAddressPage(scope: TenantScope, clientId: string, query: DeliveryAddressQuery) {
  const { type } = query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const filtered = clientAddresses(scope, clientId).$if(type !== undefined, (qb) => qb.where('type', '=', type!));
  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered.select(deliveryAddressColumns)
    .orderBy(primaryFirst).orderBy('created_at', 'desc').orderBy('id', 'desc')
    .limit(limit).offset(offset).execute();
  return { addresses: rows.map(toDeliveryAddress), paginator };
}

/** One of the client's addresses; anyone else's (client or tenant) is a 404. */
export async function ownDeliveryAddress(scope: TenantScope, clientId: string, id: string): Promise<DeliveryAddress> {
  const row = await clientAddresses(scope, clientId).select(deliveryAddressColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Delivery address');
  return toDeliveryAddress(row);
}

/** Adds an address for the client; a PRIMARY one demotes the current PRIMARY in the same transaction. */
export async function addDeliveryAddress(ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string, body: components['schemas']['DeliveryAddressInput']): Promise<DeliveryAddress> {
  // Request validation fills in the contract's default; `??` only guards a caller that bypasses it.
  const type = body.type ?? 'PRIMARY';
  const now = ctx.clock.now();
  const row = await guardPrimary(() => ctx.scope.transaction(async (scope) => {
    await lockClientAddresses(scope, clientId);
    if (type === 'PRIMARY') await demotePrimary(scope, clientId, now);
    return scope.insertInto('delivery_addresses', {
      client_id: clientId,
      type,
      name: body.name,
      region: body.region,
      city: body.city,
      phone_number: body.phoneNumber,
      address: body.address,
      created_at: now,
      updated_at: now,
    }).returning(deliveryAddressColumns).executeTakeFirstOrThrow();
  }));
  return toDeliveryAddress(row);
}

/**
 * Changes the given fields of one of the client's addresses. Making it PRIMARY demotes the current
 * PRIMARY in the same transaction, under the per-client lock, so concurrent requests leave exactly
 * one PRIMARY.
 */
export async function changeDeliveryAddress(
  ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string, id: string, body: components['schemas']['DeliveryAddressUpdate'],
): Promise<DeliveryAddress> {
  const now = ctx.clock.now();
  const row = await guardPrimary(() => ctx.scope.transaction(async (scope) => {
    await lockClientAddresses(scope, clientId);
    const current = await clientAddresses(scope, clientId).select('type').where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound('Delivery address');
    if (body.type === 'PRIMARY' && current.type !== 'PRIMARY') await demotePrimary(scope, clientId, now, id);
    return scope.updateTable('delivery_addresses')
      .set({
        ...(body.type !== undefined && { type: body.type }),
        ...(body.name !== undefined && { name: body.name }),
        ...(body.region !== undefined && { region: body.region }),
        ...(body.city !== undefined && { city: body.city }),
        ...(body.phoneNumber !== undefined && { phone_number: body.phoneNumber }),
        ...(body.address !== undefined && { address: body.address }),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('client_id', '=', clientId)
      .returning(deliveryAddressColumns)
      .executeTakeFirstOrThrow();
  }));
  return toDeliveryAddress(row);
}

/** Deletes one of the client's addresses. Deleting the PRIMARY one promotes no other. */
export async function removeDeliveryAddress(scope: TenantScope, clientId: string, id: string): Promise<void> {
  const deleted = await scope.deleteFrom('delivery_addresses')
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('Delivery address');
}
