import type { Services } from '../../platform/context.js';
import type { ClientRow, EntityReference } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';

/** Something that happened to a client, told in the app and, when it matters, by email or SMS. */
export interface ClientEvent {
  title: string;
  body: string;
  /** What it is about (a policy, an invoice...). */
  entity?: EntityReference;
  /** Also send it: to the contact the client used (`auto`: email if it has one, else SMS). */
  message?: { template: string; to?: { channel: 'email' | 'sms'; recipient: string } };
}

/**
 * The one way domain events reach clients (signup, password changes, policies, payments, claims):
 * an in-app notification and, if asked, an outbox message, both in the caller's transaction.
 */
export async function notifyClient(
  services: Pick<Services, 'notifier'>,
  scope: TenantScope,
  /** The client, or its id when the caller has not read its contacts. */
  recipient: Pick<ClientRow, 'id' | 'email' | 'phone_number'> | string,
  event: ClientEvent,
): Promise<void> {
  const clientId = typeof recipient === 'string' ? recipient : recipient.id;
  await scope.insertInto('notifications', {
    client_id: clientId,
    entity: JSON.stringify(event.entity ?? null),
    title: event.title,
    body: event.body,
  }).execute();
  if (!event.message) return;
  // Contacts are read only when a message goes out and the caller did not have them.
  const client = typeof recipient === 'string'
    ? await scope.selectFrom('clients').select(['email', 'phone_number']).where('id', '=', recipient).executeTakeFirstOrThrow()
    : recipient;
  const to = event.message.to ?? (client.email
    ? { channel: 'email' as const, recipient: client.email }
    : client.phone_number ? { channel: 'sms' as const, recipient: client.phone_number } : undefined);
  if (!to) return;
  await services.notifier.send(scope, { ...to, template: event.message.template, subject: event.title, body: event.body });
}
