import type { Services } from '../../platform/context.js';
import type { NamedTemplate } from '../../platform/notifier.js';
import type { ClientRow, EntityReference } from '../../platform/db/schema.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { CLIENT, type AccountOwner, type AccountRow } from './account.js';

/** Something that happened to an account holder, told in the app and, when it matters, by email or SMS. */
export interface AccountEvent {
  title: string;
  body: string;
  /** What it is about (a policy, an invoice...). */
  entity?: EntityReference;
  /** Also send it: to the contact given, else to the account's (email if it has one, else SMS). */
  message?: { template: NamedTemplate; to?: { channel: 'email' | 'sms'; recipient: string } };
}

/**
 * The one way domain events reach a client or a staff member (signup, password changes, policies,
 * payments, claims): an in-app notification owned through the kind's column and, if asked, an
 * outbox message, both in the scope's transaction.
 */
export async function notifyAccount(
  services: Pick<Services, 'notifier'>,
  scope: TransactionScope,
  kind: AccountOwner,
  /** The account, or its id when the caller has not read its contacts. */
  recipient: Pick<AccountRow, 'id' | 'email' | 'phone_number'> | string,
  event: AccountEvent,
): Promise<void> {
  const id = typeof recipient === 'string' ? recipient : recipient.id;
  await scope.insertInto('notifications', {
    ...(kind.owner === 'staff_id' ? { staff_id: id } : { client_id: id }),
    entity: JSON.stringify(event.entity ?? null),
    title: event.title,
    body: event.body,
  }).execute();
  if (!event.message) return;
  // Contacts are read only when a message goes out and the caller did not have them; both
  // account tables have them (Kysely is told the clients' for typing).
  const account = typeof recipient === 'string'
    ? await scope.selectFrom(kind.table as 'clients').select(['email', 'phone_number']).where('id', '=', recipient).executeTakeFirstOrThrow()
    : recipient;
  const to = event.message.to ?? (account.email
    ? { channel: 'email' as const, recipient: account.email }
    : account.phone_number ? { channel: 'sms' as const, recipient: account.phone_number } : undefined);
  if (!to) return;
  await services.notifier.send(scope, {
    ...to, template: event.message.template, vars: { title: event.title, body: event.body },
    owner: { kind: kind.owner === 'staff_id' ? 'staff' : 'client', id },
  });
}

/**
 * What clients hear of (signup, password changes, policies, payments, claims, closures): a notice
 * to a client through `notifyAccount`.
 */
export const notifyClient = (
  services: Pick<Services, 'notifier'>,
  scope: TransactionScope,
  /** The client, or its id when the caller has not read its contacts. */
  recipient: Pick<ClientRow, 'id' | 'email' | 'phone_number'> | string,
  event: AccountEvent,
): Promise<void> => notifyAccount(services, scope, CLIENT, recipient, event);
