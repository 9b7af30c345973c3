import type { Selectable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { DeliveryAddressesTable } from '../../platform/db/schema.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';

export type DeliveryAddress = components['schemas']['DeliveryAddress'];

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
