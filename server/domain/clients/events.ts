import type { Services } from '../../platform/context.js';
import type { ClientRow } from '../../platform/db/schema.js';
import type { EventActor } from '../../platform/events.js';
import type { TransactionScope } from '../../platform/tenancy.js';
import { emit } from '../events/catalogue.js';
import { changedFields } from '../events/changes.js';
import { toStaffClients } from './staff-view.js';

type Emitting = Pick<Services, 'reactions' | 'eventSnapshots'>;

/**
 * Records a change of a client, `client.updated` or (staff deactivating them) `client.deactivated`,
 * with `previous` the fields of the staff view that changed, as they were; nothing when no field the
 * API shows changed. `before` is the row as read (locked) in the same transaction as the change.
 */
export async function recordClientChange(
  ctx: Emitting, scope: TransactionScope, actor: EventActor, type: 'client.updated' | 'client.deactivated', before: ClientRow, after: ClientRow, at: Date,
): Promise<void> {
  const [was, is] = await toStaffClients(scope, [before, after], at);
  const previous = changedFields(was, is);
  if (previous) await emit(ctx, scope, actor, { type, object: { type: 'client', id: after.id }, data: {} }, at, { previous });
}

/** The client a client's own call changes, locked for the change (its view before, for `previous`). */
export const lockedClient = (scope: TransactionScope, clientId: string) =>
  scope.selectFrom('clients').selectAll().where('id', '=', clientId).forUpdate().executeTakeFirstOrThrow();
